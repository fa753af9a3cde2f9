package io.tracesync.eval;

import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.Restarts;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;

/**
 * A node's factor as drained at true time {@code trueNs}: the reference's local time for node-local t lies in
 * [map(t) − down(t), map(t) + up(t)] (ps; {@link LinkEstimate#UNBOUNDED} where open), the bounds growing away
 * from the factor's anchor as {@link Factor} says (rates 0: bounds that do not grow); carried back before
 * {@code steadyFromNs} (a restart of the node's or its reference's links: {@link Restarts}; MIN_VALUE if none), the
 * bounds need not hold.
 */
public record FactorRow(long trueNs, String node, String reference, Factor factor, long steadyFromNs) {

    /** A factor without a known restart. */
    public FactorRow(long trueNs, String node, String reference, Factor factor) {
        this(trueNs, node, reference, factor, Long.MIN_VALUE);
    }

    /** A factor whose bounds do not grow. */
    public FactorRow(long trueNs, String node, String reference, ClockMap map, long upPs, long downPs) {
        this(trueNs, node, reference, new Factor(map, upPs, downPs));
    }

    static final String CSV_HEADER = "true_ns,node,reference,slope,offset,up_ns,down_ns";

    static FactorRow of(long trueNs, AnchoredFactor f, long steadyFromNs) {
        return new FactorRow(trueNs, f.node(), f.reference(), f.factor(), steadyFromNs);
    }

    public ClockMap map() {
        return factor.toReference();
    }

    public long upPs() {
        return factor.upPs();
    }

    public long downPs() {
        return factor.downPs();
    }

    public boolean bounded() {
        return factor.bounded();
    }

    /** The reference's local time this factor gives for node-local {@code localNs}. */
    public DoubleDouble apply(long localNs) {
        return factor.toReference().apply(localNs);
    }

    /** The upper bound at node-local time t (ps). */
    public long upAtPs(long localNs) {
        return factor.upAtPs(localNs);
    }

    /** The lower bound at node-local time t (ps). */
    public long downAtPs(long localNs) {
        return factor.downAtPs(localNs);
    }

    /**
     * Whether an error (estimate − truth, ns) at node-local time t is allowed by the bounds: the truth lies in
     * [map − down(t), map + up(t)], so the error lies in [−up(t), down(t)].
     */
    public boolean contains(long localNs, double errorNs) {
        double ps = errorNs * 1000;
        return bounded() && ps <= downAtPs(localNs) && -ps <= upAtPs(localNs);
    }

    String toCsv() {
        return trueNs + "," + node + "," + reference + "," + map().slope().toDecimalString() + ","
                + map().offset().toDecimalString() + "," + nanos(upPs()) + "," + nanos(downPs());
    }

    private static String nanos(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? "" : BigDecimal.valueOf(ps, 3).toPlainString();
    }
}
