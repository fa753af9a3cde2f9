package io.tracesync.client;

import io.tracesync.avro.DatasheetBound;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.Objects;
import java.util.Optional;

/**
 * A node's factor as one record of {@code sync.factors} carries it, immutable: which component and reference it
 * belongs to, its version, and the {@link Factor} itself — the map to the reference clock with guaranteed bounds
 * that hold at the factor's anchor and grow away from it. Conversions are the network core's
 * ({@link Conversion#of}), so a service converting with this class gets exactly what the application's
 * {@code /convert} answers.
 *
 * @param node the node
 * @param component its connected component, named by its reference node
 * @param reference the reference node
 * @param factor local time (ns) to reference time (ns), with its bounds
 * @param validFromMs the wall-clock time (ms since the epoch) from which this version holds
 * @param version the node's record count, increasing by one per record
 * @param steadyFromNs the node's local time from which the factor rests on one stretch of its clock and its
 *     reference's (where their links placed the last step of either: a clock step may lie before it),
 *     {@code Long.MIN_VALUE} if none is known
 * @param datasheet the node's factor to the same reference under the datasheet alone ({@code link.max.drift.ppm}:
 *     every clock's rate within ±R of true, no clock model), its bounds growing linearly away from its anchor for
 *     ever; null where the record carries none
 */
public record PublishedFactor(String node, String component, String reference, Factor factor, long validFromMs,
        long version, long steadyFromNs, Factor datasheet) {

    public PublishedFactor {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(factor, "factor");
    }

    /**
     * The factor a record carries; a record without anchor or growth (an older writer's) has bounds that do not
     * grow.
     *
     * @throws IllegalArgumentException if its map is not finite or not increasing, or a bound or growth is negative
     */
    public static PublishedFactor of(SyncFactor r) {
        Factor factor = new Factor(clockMap(r.getMap()), bound("up_ps", r.getUpPs()), bound("down_ps", r.getDownPs()),
                r.getAnchorNs() == null ? 0 : r.getAnchorNs(),
                r.getGrowthAbove() == null ? 0 : r.getGrowthAbove(),
                r.getGrowthBelow() == null ? 0 : r.getGrowthBelow(),
                r.getCurvature() == null ? 0 : r.getCurvature(), r.getStep() == null ? 0 : r.getStep());
        return new PublishedFactor(r.getNode(), r.getComponent(), r.getReference(), factor, r.getValidFromMs(),
                r.getVersion(), r.getSteadyFromNs() == null ? Long.MIN_VALUE : r.getSteadyFromNs(),
                datasheet(r.getDatasheet()));
    }

    /** A record's datasheet bound as a factor of linear growth; null without one. */
    private static Factor datasheet(DatasheetBound d) {
        if (d == null) {
            return null;
        }
        return new Factor(clockMap(d.getMap()), bound("datasheet up_ps", d.getUpPs()),
                bound("datasheet down_ps", d.getDownPs()), d.getAnchorNs(), growth(d.getGrowthAbove()),
                growth(d.getGrowthBelow()), 0, 0);
    }

    private static double growth(double g) {
        if (!(g >= 0) || g == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("a datasheet growth is not a finite number >= 0: " + g);
        }
        return g;
    }

    /** A record's map as the core holds it: slope and offset are the exact sums hi + lo of its parts. */
    public static ClockMap clockMap(io.tracesync.avro.ClockMap m) {
        return ClockMap.of(finite("slope", m.getSlopeHi(), m.getSlopeLo()),
                finite("offset", m.getOffsetHi(), m.getOffsetLo()));
    }

    private static DoubleDouble finite(String name, double hi, double lo) {
        if (!Double.isFinite(hi) || !Double.isFinite(lo)) {
            throw new IllegalArgumentException(name + " is not finite: " + hi + " + " + lo);
        }
        return DoubleDouble.of(hi, lo);
    }

    private static long bound(String name, Long ps) {
        if (ps == null) {
            return LinkEstimate.UNBOUNDED;
        }
        if (ps < 0) {
            throw new IllegalArgumentException(name + " is negative: " + ps);
        }
        return ps;
    }

    /**
     * {@code localNs} in reference time under the datasheet alone: {@link Conversion#of} with the record's datasheet
     * factor (valid at any time, its bounds growing with the distance from its anchor); empty where the record
     * carries none.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Optional<Conversion> convertUnderDatasheet(long localNs) {
        return datasheet == null ? Optional.empty() : Optional.of(Conversion.of(datasheet, localNs));
    }

    /** Whether both bounds are known. */
    public boolean bounded() {
        return factor.bounded();
    }

    /** This factor as a version of the node's history, published at {@code validFromMs}. */
    FactorVersion toVersion() {
        return new FactorVersion(version, reference, factor, validFromMs, steadyFromNs, datasheet);
    }

    /**
     * {@code localNs} in reference time with this factor alone, by {@link Conversion#of}: the map evaluated exactly
     * and rounded to the nearest nanosecond (ties toward positive infinity), the bounds grown to {@code localNs} and
     * rounded outward. The answer is {@link HistoricConversion.Basis#EXTRAPOLATED}, truncated when
     * {@code localNs} lies before the anchor of a version other than the first.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public ReferenceTime convert(long localNs) {
        return ReferenceTime.of(node, component, NodeHistory.around(localNs, toVersion()));
    }
}
