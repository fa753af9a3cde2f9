package io.tracesync.core.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class IncidenceListsTest {

    /**
     * Random edges added and removed around a few vertices (degrees well past the inline part) agree with a model,
     * edges, sides and vertices across; the touched log holds each vertex changed since it was last taken, once.
     */
    @Property(tries = 100)
    void holdsExactlyTheEdgesOfEveryVertex(@ForAll long seed, @ForAll @IntRange(min = 2, max = 6) int vertices) {
        Random random = new Random(seed);
        IncidenceLists lists = new IncidenceLists();
        Map<Integer, TreeSet<Long>> model = new HashMap<>();
        List<int[]> present = new ArrayList<>();
        Set<Integer> touched = new HashSet<>();
        int nextEdge = 1;
        for (int i = 0; i < 600; i++) {
            if (random.nextInt(50) == 0) {
                List<Integer> taken = new ArrayList<>();
                lists.takeTouched(taken::add);
                assertEquals(touched, new HashSet<>(taken));
                assertEquals(touched.size(), taken.size());
                touched.clear();
            }
            if (present.isEmpty() || random.nextInt(3) > 0) {
                int a = 1 + random.nextInt(vertices);
                int b = 1 + random.nextInt(vertices);
                int e = nextEdge++;
                lists.add(a, e, 0, b);
                lists.add(b, e, 1, a);
                model.computeIfAbsent(a, k -> new TreeSet<>()).add((long) (2 * e) << 32 | b);
                model.computeIfAbsent(b, k -> new TreeSet<>()).add((long) (2 * e + 1) << 32 | a);
                present.add(new int[] {a, b, e});
                touched.add(a);
                touched.add(b);
            } else {
                int[] edge = present.remove(random.nextInt(present.size()));
                lists.remove(edge[0], edge[2], 0);
                lists.remove(edge[1], edge[2], 1);
                model.get(edge[0]).remove((long) (2 * edge[2]) << 32 | edge[1]);
                model.get(edge[1]).remove((long) (2 * edge[2] + 1) << 32 | edge[0]);
                touched.add(edge[0]);
                touched.add(edge[1]);
            }
        }
        for (int v = 1; v <= vertices + 1; v++) {
            TreeSet<Long> held = new TreeSet<>();
            for (int i = 0; i < lists.count(v); i++) {
                assertEquals(lists.entry(v, i) >>> 1, lists.edge(v, i));
                held.add((long) lists.entry(v, i) << 32 | lists.neighbor(v, i));
            }
            assertEquals(model.getOrDefault(v, new TreeSet<>()), held, "vertex " + v);
            assertEquals(model.getOrDefault(v, new TreeSet<>()).size(), lists.count(v), "count of vertex " + v);
        }
    }
}
