package io.tracesync.eval;

import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.math.BigDecimal;

/**
 * A node's factor as drained at true time {@code trueNs}: the reference's local time for node-local t lies in
 * [map(t) − down, map(t) + up] (ps; {@link LinkEstimate#UNBOUNDED} where open).
 */
public record FactorRow(long trueNs, String node, String reference, ClockMap map, long upPs, long downPs) {

    static final String CSV_HEADER = "true_ns,node,reference,slope,offset,up_ns,down_ns";

    static FactorRow of(long trueNs, NodeFactor f) {
        return new FactorRow(trueNs, f.node(), f.reference(), f.factor().toReference(), f.factor().upPs(),
                f.factor().downPs());
    }

    public boolean bounded() {
        return upPs != LinkEstimate.UNBOUNDED && downPs != LinkEstimate.UNBOUNDED;
    }

    /** The reference's local time this factor gives for node-local {@code localNs}. */
    public DoubleDouble apply(long localNs) {
        return map.apply(localNs);
    }

    /**
     * Whether an error (estimate − truth, ns) is allowed by the bounds: the truth lies in [map − down, map + up],
     * so the error lies in [−up, down].
     */
    public boolean contains(double errorNs) {
        double ps = errorNs * 1000;
        return bounded() && ps <= downPs && -ps <= upPs;
    }

    String toCsv() {
        return trueNs + "," + node + "," + reference + "," + map.slope().toDecimalString() + ","
                + map.offset().toDecimalString() + "," + nanos(upPs) + "," + nanos(downPs);
    }

    private static String nanos(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? "" : BigDecimal.valueOf(ps, 3).toPlainString();
    }
}
