package io.tracesync.client;

import io.tracesync.avro.SyncFactor;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A node's factor as one record of {@code sync.factors} carries it, immutable: its map to the reference clock and
 * the guaranteed bounds around the map (picoseconds of the reference clock; empty while unbounded).
 *
 * @param node the node
 * @param component its connected component, named by its reference node
 * @param reference the reference node
 * @param map local time (ns) to reference time (ns)
 * @param upPs how far above map(t) the reference's true time may lie
 * @param downPs how far below map(t) the reference's true time may lie
 * @param validFromMs the wall-clock time (ms since the epoch) from which this version holds
 * @param version the node's record count, increasing by one per record
 */
public record Factor(String node, String component, String reference, ExactClockMap map, OptionalLong upPs,
        OptionalLong downPs, long validFromMs, long version) {

    private static final BigDecimal HALF = new BigDecimal("0.5");

    public Factor {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(map, "map");
        requireNonNegative("up_ps", upPs);
        requireNonNegative("down_ps", downPs);
    }

    /**
     * The factor a record carries.
     *
     * @throws IllegalArgumentException if its map or bounds are malformed
     */
    public static Factor of(SyncFactor r) {
        return new Factor(r.getNode(), r.getComponent(), r.getReference(), ExactClockMap.of(r.getMap()),
                optional(r.getUpPs()), optional(r.getDownPs()), r.getValidFromMs(), r.getVersion());
    }

    /** Whether both bounds are known. */
    public boolean bounded() {
        return upPs.isPresent() && downPs.isPresent();
    }

    /**
     * {@code localNs} in reference time. The map is evaluated exactly; the result is rounded to the nearest
     * nanosecond (ties toward positive infinity, as the topology's own conversion), the lower bound
     * map(t) − down down and the upper bound map(t) + up up, so the bounds never shrink by rounding.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Conversion convert(long localNs) {
        BigDecimal exact = map.apply(localNs);
        long nearest = exact.add(HALF).setScale(0, RoundingMode.FLOOR).longValueExact();
        OptionalLong lower = bound(exact, downPs, -1, RoundingMode.FLOOR);
        OptionalLong upper = bound(exact, upPs, 1, RoundingMode.CEILING);
        return new Conversion(node, component, reference, localNs, nearest, lower, upper, version);
    }

    private static OptionalLong bound(BigDecimal exact, OptionalLong ps, int sign, RoundingMode rounding) {
        if (ps.isEmpty()) {
            return OptionalLong.empty();
        }
        BigDecimal ns = BigDecimal.valueOf(sign * ps.getAsLong(), 3);
        return OptionalLong.of(exact.add(ns).setScale(0, rounding).longValueExact());
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
