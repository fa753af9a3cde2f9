package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class IncidenceListsTest {

    /** Random edges added and removed around a few vertices (degrees well past the inline part) agree with a model. */
    @Property(tries = 100)
    void holdsExactlyTheEdgesOfEveryVertex(@ForAll long seed, @ForAll @IntRange(min = 2, max = 6) int vertices) {
        Random random = new Random(seed);
        IncidenceLists lists = new IncidenceLists();
        Map<Integer, TreeSet<Integer>> model = new HashMap<>();
        List<int[]> present = new ArrayList<>();
        int nextEdge = 1;
        for (int i = 0; i < 600; i++) {
            if (present.isEmpty() || random.nextInt(3) > 0) {
                int a = 1 + random.nextInt(vertices);
                int b = 1 + random.nextInt(vertices);
                int e = nextEdge++;
                lists.add(a, e, 0);
                lists.add(b, e, 1);
                model.computeIfAbsent(a, k -> new TreeSet<>()).add(2 * e);
                model.computeIfAbsent(b, k -> new TreeSet<>()).add(2 * e + 1);
                present.add(new int[] {a, b, e});
            } else {
                int[] edge = present.remove(random.nextInt(present.size()));
                lists.remove(edge[0], edge[2], 0);
                lists.remove(edge[1], edge[2], 1);
                model.get(edge[0]).remove(2 * edge[2]);
                model.get(edge[1]).remove(2 * edge[2] + 1);
            }
        }
        for (int v = 1; v <= vertices + 1; v++) {
            TreeSet<Integer> held = new TreeSet<>();
            for (int i = 0; i < lists.count(v); i++) {
                held.add(lists.edge(v, i));
            }
            TreeSet<Integer> expected = new TreeSet<>();
            model.getOrDefault(v, new TreeSet<>()).forEach(entry -> expected.add(entry >>> 1));
            assertEquals(expected, held, "vertex " + v);
            assertEquals(model.getOrDefault(v, new TreeSet<>()).size(), lists.count(v), "count of vertex " + v);
        }
    }
}
