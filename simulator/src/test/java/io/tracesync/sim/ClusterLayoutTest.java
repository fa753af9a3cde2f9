package io.tracesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClusterLayoutTest {

    private static ClusterLayout build(ClusterLayout.Kind kind, int n, double degree, int group) {
        return ClusterLayout.build(kind, n, degree, group, new SplittableRandom(42));
    }

    /** Number of connected components, over the links whose hop count passes {@code keep}. */
    private static int components(ClusterLayout t, java.util.function.IntPredicate keep) {
        int[] parent = new int[t.nodes()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        int count = t.nodes();
        for (int j = 0; j < t.links(); j++) {
            if (keep.test(t.hops(j))) {
                int x = find(parent, t.a(j));
                int y = find(parent, t.b(j));
                if (x != y) {
                    parent[x] = y;
                    count--;
                }
            }
        }
        return count;
    }

    private static int find(int[] p, int x) {
        while (p[x] != x) {
            p[x] = p[p[x]];
            x = p[x];
        }
        return x;
    }

    private static void assertSimpleAndSorted(ClusterLayout t) {
        Set<Long> seen = new HashSet<>();
        for (int j = 0; j < t.links(); j++) {
            assertTrue(t.a(j) < t.b(j), "a < b");
            assertTrue(seen.add((long) t.a(j) * t.nodes() + t.b(j)), "duplicate link");
            if (j > 0) {
                assertTrue(t.a(j - 1) < t.a(j) || t.a(j - 1) == t.a(j) && t.b(j - 1) < t.b(j), "sorted");
            }
        }
    }

    @Test
    void starHasNMinusOneLinksAllThroughNodeZero() {
        ClusterLayout t = build(ClusterLayout.Kind.STAR, 100, 4, 8);
        assertEquals(99, t.links());
        for (int j = 0; j < t.links(); j++) {
            assertEquals(0, t.a(j));
            assertEquals(ClusterLayout.NEAR, t.hops(j));
        }
        assertSimpleAndSorted(t);
    }

    @Test
    void randomGraphIsConnectedWithTheMeanDegree() {
        for (int n : new int[] {2, 3, 10, 1000, 10_000}) {
            ClusterLayout t = build(ClusterLayout.Kind.RANDOM, n, 4, 8);
            assertSimpleAndSorted(t);
            assertEquals(1, components(t, h -> true), "n " + n);
            long expected = Math.min((long) n * (n - 1) / 2, Math.max(n - 1, 2L * n));
            assertEquals(expected, t.links(), "n " + n);
        }
    }

    @Test
    void racksTalkWithinAndAcrossThroughTheSpine() {
        int n = 100;
        int size = 8;
        ClusterLayout t = build(ClusterLayout.Kind.RACKS, n, 4, size);
        assertSimpleAndSorted(t);
        assertEquals(1, components(t, h -> true));
        // within a rack: complete, one switch; across: the spine
        int near = 0;
        boolean[] crosses = new boolean[n];
        for (int j = 0; j < t.links(); j++) {
            boolean sameRack = t.a(j) / size == t.b(j) / size;
            assertEquals(sameRack ? ClusterLayout.NEAR : ClusterLayout.FAR, t.hops(j));
            if (sameRack) {
                near++;
            } else {
                crosses[t.a(j)] = true;
                crosses[t.b(j)] = true;
            }
        }
        assertEquals(12 * 28 + 6, near);
        for (int h = 0; h < n; h++) {
            assertTrue(crosses[h], "host " + h + " talks to another rack");
        }
        assertEquals(13, components(t, h -> h == ClusterLayout.NEAR));
    }

    @Test
    void cliquesAreCompleteAndJoinedByOneBridgeEach() {
        int n = 83;
        int size = 8;
        ClusterLayout t = build(ClusterLayout.Kind.CLIQUES, n, 4, size);
        assertSimpleAndSorted(t);
        int cliques = 11;
        assertEquals(10 * 28 + 3 + (cliques - 1), t.links());
        assertEquals(1, components(t, h -> true));
        assertEquals(cliques, components(t, h -> h == ClusterLayout.NEAR));
        for (int j = 0; j < t.links(); j++) {
            assertEquals(t.a(j) / size == t.b(j) / size ? ClusterLayout.NEAR : ClusterLayout.FAR, t.hops(j));
        }
    }

    @Test
    void sameRandomnessSameTopology() {
        for (ClusterLayout.Kind kind : ClusterLayout.Kind.values()) {
            ClusterLayout x = build(kind, 300, 3, 6);
            ClusterLayout y = build(kind, 300, 3, 6);
            assertEquals(x.links(), y.links());
            for (int j = 0; j < x.links(); j++) {
                assertEquals(x.a(j), y.a(j));
                assertEquals(x.b(j), y.b(j));
            }
        }
    }
}
