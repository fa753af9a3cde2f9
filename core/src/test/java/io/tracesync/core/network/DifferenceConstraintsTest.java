package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DifferenceConstraintsTest {

    /**
     * Random systems with negative arcs, some with negative cycles: distances equal plain Bellman–Ford's both ways,
     * or a negative cycle is reported exactly when Bellman–Ford finds one, and it is a real cycle of negative
     * weight.
     */
    @Property(tries = 500)
    void equalsBellmanFord(@ForAll long seed, @ForAll @IntRange(min = 1, max = 14) int n,
            @ForAll @IntRange(min = 0, max = 40) int arcs) {
        Random r = new Random(seed);
        DifferenceConstraints g = new DifferenceConstraints(n, arcs);
        int[] from = new int[arcs];
        int[] to = new int[arcs];
        long[] w = new long[arcs];
        int bias = r.nextInt(3); // 0: nonnegative, 1: mostly, 2: anything
        for (int a = 0; a < arcs; a++) {
            from[a] = r.nextInt(n);
            to[a] = r.nextInt(n);
            w[a] = switch (bias) {
                case 0 -> r.nextInt(100);
                case 1 -> r.nextInt(100) - 5;
                default -> r.nextInt(200) - 60;
            };
            g.add(from[a], to[a], w[a]);
        }
        for (boolean forward : new boolean[] {true, false}) {
            long[] expected = bellmanFord(n, forward ? from : to, forward ? to : from, w);
            DifferenceConstraints.Result got = g.distances(0, forward, null);
            if (expected == null) {
                assertFalse(got.consistent());
                int[] cycle = got.negativeCycle();
                long total = 0;
                for (int k = 0; k < cycle.length; k++) {
                    int a = cycle[k];
                    int next = cycle[(k + 1) % cycle.length];
                    assertEquals(g.to(a), g.from(next), "arcs in path order");
                    total += g.weight(a);
                }
                assertTrue(total < 0, "cycle weight " + total);
            } else {
                assertTrue(got.consistent(), Arrays.toString(expected));
                assertArrayEquals(expected, got.distance());
            }
        }
    }

    /** Plain Bellman–Ford from vertex 0 over arcs u→v; null on a reachable negative cycle. */
    private static long[] bellmanFord(int n, int[] u, int[] v, long[] w) {
        long[] d = new long[n];
        Arrays.fill(d, DifferenceConstraints.UNBOUNDED);
        d[0] = 0;
        for (int pass = 0; pass < n; pass++) {
            for (int a = 0; a < w.length; a++) {
                if (d[u[a]] != DifferenceConstraints.UNBOUNDED && d[u[a]] + w[a] < d[v[a]]) {
                    d[v[a]] = d[u[a]] + w[a];
                }
            }
        }
        for (int a = 0; a < w.length; a++) {
            if (d[u[a]] != DifferenceConstraints.UNBOUNDED && d[u[a]] + w[a] < d[v[a]]) {
                return null;
            }
        }
        return d;
    }

    @Test
    void excludedArcsAndUnboundedWeightsTakeNoPart() {
        DifferenceConstraints g = new DifferenceConstraints(3, 3);
        int cheap = g.add(0, 1, 5);
        g.add(0, 2, 20);
        assertEquals(-1, g.add(2, 1, DifferenceConstraints.UNBOUNDED));
        boolean[] excluded = new boolean[g.arcs()];
        assertArrayEquals(new long[] {0, 5, 20}, g.distances(0, true, excluded).distance());
        excluded[cheap] = true;
        DifferenceConstraints.Result r = g.distances(0, true, excluded);
        assertNotNull(r.distance());
        assertEquals(DifferenceConstraints.UNBOUNDED, r.distance()[1]);
    }
}
