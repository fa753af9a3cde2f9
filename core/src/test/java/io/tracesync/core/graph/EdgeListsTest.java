package io.tracesync.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class EdgeListsTest {

    /**
     * Random edges added, re-weighted and removed around a few vertices agree with a model after every step: each
     * vertex's row holds exactly its edges' slots, each beside its edge's current weight rounded down to a float.
     */
    @Property(tries = 100)
    void everyRowHoldsItsEdgesWithTheirWeightsRoundedDown(@ForAll long seed, @ForAll @IntRange(min = 2, max = 8) int vertices) {
        Random random = new Random(seed);
        EdgeLists lists = new EdgeLists();
        List<Map<Integer, Double>> model = new ArrayList<>();
        for (int v = 0; v <= vertices; v++) {
            model.add(new TreeMap<>());
        }
        List<int[]> present = new ArrayList<>();
        int nextEdge = 1;
        for (int step = 0; step < 400; step++) {
            int op = present.isEmpty() ? 0 : random.nextInt(3);
            if (op == 0) {
                int a = 1 + random.nextInt(vertices);
                int b = 1 + random.nextInt(vertices);
                int e = nextEdge++;
                double w = random.nextDouble();
                lists.add(a, e, 0, w);
                lists.add(b, e, 1, w);
                model.get(a).put(2 * e, w);
                model.get(b).put(2 * e + 1, w);
                present.add(new int[] {a, b, e});
            } else if (op == 1) {
                int[] edge = present.get(random.nextInt(present.size()));
                double w = random.nextDouble();
                lists.setWeight(edge[2], edge[0], edge[1], w);
                model.get(edge[0]).put(2 * edge[2], w);
                model.get(edge[1]).put(2 * edge[2] + 1, w);
            } else {
                int[] edge = present.remove(random.nextInt(present.size()));
                lists.remove(edge[0], edge[2], 0);
                lists.remove(edge[1], edge[2], 1);
                model.get(edge[0]).remove(2 * edge[2]);
                model.get(edge[1]).remove(2 * edge[2] + 1);
            }
            for (int v = 1; v <= vertices; v++) {
                Map<Integer, Double> row = new TreeMap<>();
                for (int i = 1, n = lists.row(v) == null ? 0 : (int) lists.row(v)[0]; i <= n; i++) {
                    long word = lists.row(v)[i];
                    Double w = model.get(v).get(EdgeLists.slot(word));
                    row.put(EdgeLists.slot(word), w);
                    float floor = EdgeLists.weightFloor(word);
                    assertTrue(w != null && floor <= w && Math.nextUp(floor) > w, floor + " for " + w);
                }
                assertEquals(model.get(v), row, "vertex " + v + " after step " + step);
            }
        }
    }
}
