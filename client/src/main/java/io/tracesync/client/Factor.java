package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A node's factor as one record of {@code sync.factors} carries it, immutable: its map to the reference clock and
 * the guaranteed bounds around the map (picoseconds of the reference clock; empty while unbounded), which hold at
 * the local time {@code anchorNs} and grow away from it: with d = t − anchorNs, after the anchor up grows by
 * growthAbove·d and down by growthBelow·d, before it the other way round (rates 0: bounds that do not grow, as
 * records of writers without these fields carry).
 *
 * @param node the node
 * @param component its connected component, named by its reference node
 * @param reference the reference node
 * @param map local time (ns) to reference time (ns)
 * @param upPs how far above map(t) the reference's true time may lie
 * @param downPs how far below map(t) the reference's true time may lie
 * @param anchorNs the local time at which upPs and downPs hold
 * @param growthAbove reference ns per local ns by which up grows after the anchor (down before it)
 * @param growthBelow reference ns per local ns by which down grows after the anchor (up before it)
 * @param validFromMs the wall-clock time (ms since the epoch) from which this version holds
 * @param version the node's record count, increasing by one per record
 */
public record Factor(String node, String component, String reference, ExactClockMap map, OptionalLong upPs,
        OptionalLong downPs, long anchorNs, double growthAbove, double growthBelow, long validFromMs,
        long version) {

    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final double GROWTH_SAFETY = 1 + 0x1p-48;

    public Factor {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(map, "map");
        requireNonNegative("up_ps", upPs);
        requireNonNegative("down_ps", downPs);
        if (!(growthAbove >= 0) || !(growthBelow >= 0)) {
            throw new IllegalArgumentException("growth is negative or not a number: " + growthAbove + ", "
                    + growthBelow);
        }
    }

    /**
     * The factor a record carries.
     *
     * @throws IllegalArgumentException if its map or bounds are malformed
     */
    public static Factor of(SyncFactor r) {
        return new Factor(r.getNode(), r.getComponent(), r.getReference(), ExactClockMap.of(r.getMap()),
                optional(r.getUpPs()), optional(r.getDownPs()), r.getAnchorNs() == null ? 0 : r.getAnchorNs(),
                r.getGrowthAbove() == null ? 0 : r.getGrowthAbove(),
                r.getGrowthBelow() == null ? 0 : r.getGrowthBelow(), r.getValidFromMs(), r.getVersion());
    }

    /** Whether both bounds are known. */
    public boolean bounded() {
        return upPs.isPresent() && downPs.isPresent();
    }

    /**
     * {@code localNs} in reference time. The map is evaluated exactly; the result is rounded to the nearest
     * nanosecond (ties toward positive infinity, as the topology's own conversion), the lower bound
     * map(t) − down(t) down and the upper bound map(t) + up(t) up, the bounds grown to t and rounded up to the
     * picosecond first, so they never shrink by rounding.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Conversion convert(long localNs) {
        BigDecimal exact = map.apply(localNs);
        long nearest = exact.add(HALF).setScale(0, RoundingMode.FLOOR).longValueExact();
        boolean after = localNs >= anchorNs;
        OptionalLong lower = bound(exact, grown(downPs, localNs, after ? growthBelow : growthAbove), -1,
                RoundingMode.FLOOR);
        OptionalLong upper = bound(exact, grown(upPs, localNs, after ? growthAbove : growthBelow), 1,
                RoundingMode.CEILING);
        return new Conversion(node, component, reference, localNs, nearest, lower, upper, version);
    }

    private static OptionalLong bound(BigDecimal exact, OptionalLong ps, int sign, RoundingMode rounding) {
        if (ps.isEmpty()) {
            return OptionalLong.empty();
        }
        BigDecimal ns = BigDecimal.valueOf(sign * ps.getAsLong(), 3);
        return OptionalLong.of(exact.add(ns).setScale(0, rounding).longValueExact());
    }

    /**
     * A bound at the anchor grown by rate·|t − anchor|, rounded up as the topology's own conversion does (the
     * double product times 1 + 2^-48, then up to the picosecond); empty where it leaves the long range.
     */
    private OptionalLong grown(OptionalLong ps, long t, double rate) {
        if (ps.isEmpty() || rate == 0) {
            return ps;
        }
        long d = t - anchorNs;
        if (((t ^ anchorNs) & (t ^ d)) < 0 || Math.abs(d) > Long.MAX_VALUE / 1000) {
            return OptionalLong.empty();
        }
        double g = Math.ceil(Math.abs(d) * 1000 * rate * GROWTH_SAFETY);
        long total = ps.getAsLong() + (long) g;
        return g >= 0x1p63 || total < 0 ? OptionalLong.empty() : OptionalLong.of(total);
    }

    private static OptionalLong optional(Long ps) {
        return ps == null ? OptionalLong.empty() : OptionalLong.of(ps);
    }

    private static void requireNonNegative(String name, OptionalLong ps) {
        if (ps.isPresent() && ps.getAsLong() < 0) {
            throw new IllegalArgumentException(name + " is negative: " + ps.getAsLong());
        }
    }
}
