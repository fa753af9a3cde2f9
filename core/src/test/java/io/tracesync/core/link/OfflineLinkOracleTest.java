package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.numeric.Rational;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OfflineLinkOracleTest {

    private static List<long[]> pts(long... xy) {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < xy.length; i += 2) {
            out.add(new long[] {xy[i], xy[i + 1]});
        }
        return out;
    }

    private static Rational r(long n) {
        return Rational.of(n);
    }

    private static Rational r(long n, long d) {
        return Rational.of(n, d);
    }

    // P = triangle with vertices (m, c) = (2/5, 10), (1, 10), (8/5, 4).
    @Test
    void accurateTriangle() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 10, 10, 20), pts(5, 12));
        assertEquals(LinkQuality.ACCURATE, o.quality());
        assertEquals(r(2, 5), o.slopeMin());
        assertEquals(r(10), o.interceptMin());
        assertEquals(r(8, 5), o.slopeMax());
        assertEquals(r(4), o.interceptMax());
        long[] ts = {-10, 0, 2, 5, 10, 20};
        Rational[] up = {r(6), r(10), r(12), r(15), r(20), r(36)};
        Rational[] lo = {r(-12), r(4), r(36, 5), r(12), r(14), r(18)};
        for (int i = 0; i < ts.length; i++) {
            assertEquals(up[i], o.upperAt(ts[i]), "upperAt " + ts[i]);
            assertEquals(lo[i], o.lowerAt(ts[i]), "lowerAt " + ts[i]);
        }
    }

    @Test
    void duplicatesAndOrderDoNotMatter() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(10, 20, 0, 10, 0, 10, 10, 20), pts(5, 12, 5, 12));
        assertEquals(r(2, 5), o.slopeMin());
        assertEquals(r(8, 5), o.slopeMax());
        assertEquals(r(15), o.upperAt(5));
    }

    @Test
    void absent() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(List.of(), List.of());
        assertEquals(LinkQuality.ABSENT, o.quality());
        assertNull(o.slopeMin());
        assertNull(o.slopeMax());
        assertThrows(IllegalStateException.class, () -> o.upperAt(0));
        assertThrows(IllegalStateException.class, () -> o.lowerAt(0));
    }

    @Test
    void infeasible() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 10, 10, 12), pts(5, 12)); // m >= 2/5 and m <= 0
        assertEquals(LinkQuality.FAIL, o.quality());
        assertNull(o.slopeMin());
        assertNull(o.interceptMax());
        assertThrows(IllegalStateException.class, () -> o.upperAt(5));
        assertThrows(IllegalStateException.class, () -> o.lowerAt(5));
    }

    @Test
    void equalXInfeasibleAndTouching() {
        assertEquals(LinkQuality.FAIL, OfflineLinkOracle.solve(pts(5, 10), pts(5, 11)).quality());
        // P is the line 5m + c = 10: feasible (non-strict), no slope bound, exact only at t = 5.
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(5, 10), pts(5, 10));
        assertEquals(LinkQuality.APPROXIMATE, o.quality());
        assertNull(o.slopeMin());
        assertNull(o.slopeMax());
        assertEquals(r(10), o.upperAt(5));
        assertEquals(r(10), o.lowerAt(5));
        assertNull(o.upperAt(6));
        assertNull(o.lowerAt(6));
        assertNull(o.upperAt(4));
    }

    @Test
    void collinearGivesSinglePoint() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 0, 10, 10), pts(5, 5));
        assertEquals(LinkQuality.ACCURATE, o.quality());
        assertEquals(r(1), o.slopeMin());
        assertEquals(r(1), o.slopeMax());
        assertEquals(r(0), o.interceptMin());
        assertEquals(r(0), o.interceptMax());
        for (long t : new long[] {-7, 0, 3, 100}) {
            assertEquals(r(t), o.upperAt(t));
            assertEquals(r(t), o.lowerAt(t));
        }
    }

    @Test
    void onlyUpperPoints() {
        // Lower hull of U is (0,10)-(10,20); (5,30) is above it.
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 10, 10, 20, 5, 30), List.of());
        assertEquals(LinkQuality.INCOMPLETE, o.quality());
        assertNull(o.slopeMin());
        assertNull(o.slopeMax());
        assertEquals(r(10), o.upperAt(0));
        assertEquals(r(15), o.upperAt(5));
        assertEquals(r(20), o.upperAt(10));
        assertNull(o.upperAt(-1));
        assertNull(o.upperAt(11));
        for (long t : new long[] {-1, 0, 5, 11}) {
            assertNull(o.lowerAt(t));
        }
        OfflineLinkOracle single = OfflineLinkOracle.solve(pts(3, 7), List.of());
        assertEquals(r(7), single.upperAt(3));
        assertNull(single.upperAt(4));
    }

    @Test
    void onlyLowerPoints() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(List.of(), pts(0, 0, 10, 0, 4, -3));
        assertEquals(LinkQuality.INCOMPLETE, o.quality());
        assertEquals(r(0), o.lowerAt(5));
        assertEquals(r(0), o.lowerAt(0));
        assertNull(o.lowerAt(11));
        assertNull(o.lowerAt(-1));
        assertNull(o.upperAt(5));
    }

    // P = {m >= 2/5, 12 - 5m <= c <= 10}: L_min exists, L_max does not.
    @Test
    void approximateOneSlopeOpen() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 10), pts(5, 12));
        assertEquals(LinkQuality.APPROXIMATE, o.quality());
        assertEquals(r(2, 5), o.slopeMin());
        assertEquals(r(10), o.interceptMin());
        assertNull(o.slopeMax());
        assertNull(o.interceptMax());
        assertEquals(r(10), o.upperAt(0));
        assertEquals(r(48, 5), o.upperAt(-1)); // -m + c <= 10 - 2/5
        assertNull(o.upperAt(2));
        assertNull(o.upperAt(5));
        assertEquals(r(12), o.lowerAt(5));
        assertEquals(r(64, 5), o.lowerAt(7)); // c >= 12 - 5m, so 7m + c >= 12 + 2m >= 64/5
        assertNull(o.lowerAt(0));
        assertNull(o.lowerAt(4));
    }

    @Test
    void stripUnboundedBothWays() {
        OfflineLinkOracle o = OfflineLinkOracle.solve(pts(0, 10), pts(0, 5)); // P = {5 <= c <= 10}, m free
        assertEquals(LinkQuality.APPROXIMATE, o.quality());
        assertNull(o.slopeMin());
        assertNull(o.slopeMax());
        assertEquals(r(10), o.upperAt(0));
        assertEquals(r(5), o.lowerAt(0));
        assertNull(o.upperAt(1));
        assertNull(o.lowerAt(-1));
    }

    @Test
    void extremeCoordinatesDoNotOverflow() {
        long min = Long.MIN_VALUE;
        long max = Long.MAX_VALUE;
        OfflineLinkOracle id = OfflineLinkOracle.solve(pts(min, min, max, max), pts(0, 0));
        assertEquals(LinkQuality.ACCURATE, id.quality());
        assertEquals(r(1), id.slopeMin());
        assertEquals(r(1), id.slopeMax());
        assertEquals(r(0), id.interceptMax());
        assertEquals(r(max), id.upperAt(max));
        assertEquals(r(min), id.lowerAt(min));
        // m·(MIN - MAX) <= MAX - MIN, i.e. m >= -1; intercept MAX + MIN = -1.
        OfflineLinkOracle anti = OfflineLinkOracle.solve(pts(min, max), pts(max, min));
        assertEquals(LinkQuality.APPROXIMATE, anti.quality());
        assertEquals(r(-1), anti.slopeMin());
        assertEquals(r(-1), anti.interceptMin());
        assertNull(anti.slopeMax());
        assertEquals(r(max), anti.upperAt(min));
        assertEquals(r(min), anti.lowerAt(max));
    }

    // ---- brute force: vertex enumeration of P clipped to boxes, independent of the oracle's elimination ----

    /** Feasible vertices (m, c) of P ∩ [-box, box]^2: all pairwise intersections of constraint boundaries. */
    private static List<Rational[]> vertices(List<long[]> up, List<long[]> down, long box) {
        List<BigInteger[]> cs = new ArrayList<>(); // a·m + b·c <= r
        for (long[] p : up) {
            cs.add(bi(p[0], 1, p[1]));
        }
        for (long[] p : down) {
            cs.add(bi(-p[0], -1, -p[1]));
        }
        cs.add(bi(1, 0, box));
        cs.add(bi(-1, 0, box));
        cs.add(bi(0, 1, box));
        cs.add(bi(0, -1, box));
        List<Rational[]> out = new ArrayList<>();
        for (int i = 0; i < cs.size(); i++) {
            for (int j = i + 1; j < cs.size(); j++) {
                BigInteger[] p = cs.get(i);
                BigInteger[] q = cs.get(j);
                BigInteger det = p[0].multiply(q[1]).subtract(q[0].multiply(p[1]));
                if (det.signum() == 0) {
                    continue;
                }
                Rational[] v = {
                    Rational.of(p[2].multiply(q[1]).subtract(q[2].multiply(p[1])), det),
                    Rational.of(p[0].multiply(q[2]).subtract(q[0].multiply(p[2])), det)};
                if (cs.stream().allMatch(k -> lhs(k, v).compareTo(Rational.of(k[2], BigInteger.ONE)) <= 0)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    private static BigInteger[] bi(long a, long b, long r) {
        return new BigInteger[] {BigInteger.valueOf(a), BigInteger.valueOf(b), BigInteger.valueOf(r)};
    }

    private static Rational lhs(BigInteger[] k, Rational[] v) {
        return Rational.of(k[0], BigInteger.ONE).multiply(v[0]).add(Rational.of(k[1], BigInteger.ONE).multiply(v[1]));
    }

    private static Rational maxOf(List<Rational[]> verts, long pm, long pc) {
        Rational best = null;
        for (Rational[] v : verts) {
            Rational val = r(pm).multiply(v[0]).add(r(pc).multiply(v[1]));
            best = best == null || val.compareTo(best) > 0 ? val : best;
        }
        return best;
    }

    /** sup over P of pm·m + pc·c, or null if infinite (the clipped maximum then grows with the box). */
    private static Rational bruteSup(List<Rational[]> small, List<Rational[]> big, long pm, long pc) {
        Rational a = maxOf(small, pm, pc);
        return a.equals(maxOf(big, pm, pc)) ? a : null;
    }

    private static Rational neg(Rational x) {
        return x == null ? null : x.negate();
    }

    private static List<long[]> randomPoints(Random rnd, int maxCount, int range) {
        List<long[]> out = new ArrayList<>();
        int n = rnd.nextInt(maxCount + 1);
        for (int i = 0; i < n; i++) {
            out.add(new long[] {rnd.nextInt(2 * range + 1) - range, rnd.nextInt(2 * range + 1) - range});
        }
        return out;
    }

    /** Points above a random line go to U, below to D, so that feasible sets are common. */
    private static List<List<long[]>> randomCase(Random rnd) {
        if (rnd.nextInt(3) == 0) {
            return List.of(randomPoints(rnd, 5, 6), randomPoints(rnd, 5, 6));
        }
        int m = rnd.nextInt(5) - 2;
        int c = rnd.nextInt(5) - 2;
        List<long[]> up = new ArrayList<>();
        List<long[]> down = new ArrayList<>();
        int n = rnd.nextInt(9);
        for (int i = 0; i < n; i++) {
            long x = rnd.nextInt(7) - 3;
            long y = m * x + c + (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(3) + 1) * (rnd.nextBoolean() ? 1 : -1);
            if (Math.abs(y) <= 6) {
                (y >= m * x + c ? up : down).add(new long[] {x, y});
            }
        }
        if (rnd.nextInt(4) == 0) { // occasionally a direction is missing
            (rnd.nextBoolean() ? up : down).clear();
        }
        return List.of(up, down);
    }

    @Test
    void matchesClippedVertexEnumeration() {
        Random rnd = new Random(20100101L);
        int[] seen = new int[LinkQuality.values().length];
        for (int iter = 0; iter < 3000; iter++) {
            List<List<long[]>> cse = randomCase(rnd);
            List<long[]> up = cse.get(0);
            List<long[]> down = cse.get(1);
            OfflineLinkOracle o = OfflineLinkOracle.solve(up, down);
            String ctx = describe(up, down);
            seen[o.quality().ordinal()]++;
            List<Rational[]> small = vertices(up, down, 10_000);
            List<Rational[]> big = vertices(up, down, 20_000);
            if (up.isEmpty() && down.isEmpty()) {
                assertEquals(LinkQuality.ABSENT, o.quality(), ctx);
                continue;
            }
            if (small.isEmpty()) {
                assertEquals(LinkQuality.FAIL, o.quality(), ctx);
                assertThrows(IllegalStateException.class, () -> o.upperAt(0));
                continue;
            }
            if (up.isEmpty() || down.isEmpty()) {
                assertEquals(LinkQuality.INCOMPLETE, o.quality(), ctx);
                assertNull(o.slopeMin(), ctx);
                assertNull(o.slopeMax(), ctx);
            } else {
                Rational sMax = bruteSup(small, big, 1, 0);
                Rational sMin = neg(bruteSup(small, big, -1, 0));
                assertEquals(sMax != null && sMin != null ? LinkQuality.ACCURATE : LinkQuality.APPROXIMATE,
                    o.quality(), ctx);
                assertEquals(sMax, o.slopeMax(), ctx);
                assertEquals(sMin, o.slopeMin(), ctx);
                for (Rational[] v : small) {
                    if (v[0].equals(sMax)) {
                        assertEquals(v[1], o.interceptMax(), ctx);
                    }
                    if (v[0].equals(sMin)) {
                        assertEquals(v[1], o.interceptMin(), ctx);
                    }
                }
                assertEquals(sMax == null, o.interceptMax() == null, ctx);
                assertEquals(sMin == null, o.interceptMin() == null, ctx);
            }
            for (long t = -8; t <= 8; t++) {
                assertEquals(bruteSup(small, big, t, 1), o.upperAt(t), ctx + " upperAt " + t);
                assertEquals(neg(bruteSup(small, big, -t, -1)), o.lowerAt(t), ctx + " lowerAt " + t);
            }
        }
        for (LinkQuality q : LinkQuality.values()) {
            assertTrue(seen[q.ordinal()] > 20, "too few random cases of " + q);
        }
    }

    @Test
    void feasibleLineLiesBetweenBounds() {
        Random rnd = new Random(7L);
        int checked = 0;
        for (int iter = 0; iter < 2000; iter++) {
            List<List<long[]>> cse = randomCase(rnd);
            List<long[]> up = cse.get(0);
            List<long[]> down = cse.get(1);
            OfflineLinkOracle o = OfflineLinkOracle.solve(up, down);
            String ctx = describe(up, down);
            Rational m;
            Rational c;
            if (o.quality() == LinkQuality.ACCURATE) {
                Rational half = r(1, 2);
                m = o.slopeMin().add(o.slopeMax()).multiply(half);
                c = o.interceptMin().add(o.interceptMax()).multiply(half);
            } else if (o.quality() == LinkQuality.APPROXIMATE || o.quality() == LinkQuality.INCOMPLETE) {
                List<Rational[]> vs = vertices(up, down, 1000);
                Rational[] v = vs.get(rnd.nextInt(vs.size()));
                m = v[0];
                c = v[1];
            } else {
                continue;
            }
            checked++;
            for (long[] p : up) {
                assertTrue(r(p[1]).compareTo(m.multiply(r(p[0])).add(c)) >= 0, ctx);
            }
            for (long[] p : down) {
                assertTrue(r(p[1]).compareTo(m.multiply(r(p[0])).add(c)) <= 0, ctx);
            }
            for (long t = -10; t <= 10; t++) {
                Rational at = m.multiply(r(t)).add(c);
                Rational hi = o.upperAt(t);
                Rational lo = o.lowerAt(t);
                assertTrue(hi == null || at.compareTo(hi) <= 0, ctx + " t=" + t);
                assertTrue(lo == null || lo.compareTo(at) <= 0, ctx + " t=" + t);
            }
        }
        assertTrue(checked > 500);
    }

    /** Shifting every x by X and y by Y near ±2^63 maps c to c + Y - m·X and the bound at t + X to bound(t) + Y. */
    @Test
    void translationToExtremeCoordinates() {
        Random rnd = new Random(42L);
        long[][] shifts = {
            {Long.MAX_VALUE - 10, Long.MIN_VALUE + 10}, {Long.MIN_VALUE + 10, Long.MAX_VALUE - 10},
            {Long.MAX_VALUE - 10, Long.MAX_VALUE - 10}};
        for (int iter = 0; iter < 500; iter++) {
            List<List<long[]>> cse = randomCase(rnd);
            long[] s = shifts[iter % shifts.length];
            OfflineLinkOracle o = OfflineLinkOracle.solve(cse.get(0), cse.get(1));
            OfflineLinkOracle sh = OfflineLinkOracle.solve(shift(cse.get(0), s), shift(cse.get(1), s));
            String ctx = describe(cse.get(0), cse.get(1));
            assertEquals(o.quality(), sh.quality(), ctx);
            assertEquals(o.slopeMin(), sh.slopeMin(), ctx);
            assertEquals(o.slopeMax(), sh.slopeMax(), ctx);
            if (o.slopeMax() != null) {
                assertEquals(o.interceptMax().add(r(s[1])).subtract(o.slopeMax().multiply(r(s[0]))),
                    sh.interceptMax(), ctx);
            }
            if (o.slopeMin() != null) {
                assertEquals(o.interceptMin().add(r(s[1])).subtract(o.slopeMin().multiply(r(s[0]))),
                    sh.interceptMin(), ctx);
            }
            if (o.quality() == LinkQuality.FAIL || o.quality() == LinkQuality.ABSENT) {
                continue;
            }
            for (long t = -8; t <= 8; t++) {
                Rational hi = o.upperAt(t);
                Rational lo = o.lowerAt(t);
                assertEquals(hi == null ? null : hi.add(r(s[1])), sh.upperAt(t + s[0]), ctx);
                assertEquals(lo == null ? null : lo.add(r(s[1])), sh.lowerAt(t + s[0]), ctx);
            }
        }
    }

    private static List<long[]> shift(List<long[]> points, long[] s) {
        List<long[]> out = new ArrayList<>();
        for (long[] p : points) {
            out.add(new long[] {p[0] + s[0], p[1] + s[1]});
        }
        return out;
    }

    private static String describe(List<long[]> up, List<long[]> down) {
        StringBuilder sb = new StringBuilder("U=");
        up.forEach(p -> sb.append('(').append(p[0]).append(',').append(p[1]).append(')'));
        sb.append(" D=");
        down.forEach(p -> sb.append('(').append(p[0]).append(',').append(p[1]).append(')'));
        return sb.toString();
    }

    @Test
    void inputListsAreCopied() {
        List<long[]> up = pts(0, 10, 10, 20);
        OfflineLinkOracle o = OfflineLinkOracle.solve(up, pts(5, 12));
        up.get(0)[1] = -100;
        assertNotNull(o.upperAt(0));
        assertEquals(r(10), o.upperAt(0));
    }
}
