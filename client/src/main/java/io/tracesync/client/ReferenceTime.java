package io.tracesync.client;

import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoricConversion.Basis;
import java.util.OptionalLong;

/**
 * A local timestamp converted to its component's reference clock: the reference's true time lies in
 * [{@code lowerNs}, {@code upperNs}] (empty while unbounded), and {@code referenceNs} is the estimate inside it,
 * rounded to the nearest nanosecond. Always lowerNs &lt;= referenceNs &lt;= upperNs. The answer comes from the
 * versions of the node's factor on both sides of {@code localNs} where the clock holds them
 * ({@link Basis#INTERPOLATED}), else from one version's bounds carried to {@code localNs}.
 *
 * @param node the node whose clock {@code localNs} is read from
 * @param component the node's connected component, named by its reference node
 * @param reference the reference node whose clock {@code referenceNs} is in
 * @param localNs the converted timestamp, nanoseconds of the node's clock
 * @param referenceNs the estimate, nanoseconds of the reference clock, rounded to the nearest (ties up): for one
 *     version slope·localNs + offset, between two the chord of their maps' values at their anchors
 * @param lowerNs the guaranteed lower bound, rounded down
 * @param upperNs the guaranteed upper bound, rounded up
 * @param version the version that answered: the one in force at {@code localNs} (the newest held anchored at or
 *     before it), or the oldest held when {@code localNs} lies before every version held
 * @param next the version anchored after {@code localNs} that the answer also used, if any
 * @param basis how the answer was made: {@link Basis#INTERPOLATED} from {@code version} and {@code next},
 *     {@link Basis#EXTRAPOLATED} from {@code version} alone, {@link Basis#CONTRADICTED} from {@code version} alone
 *     because the two versions around {@code localNs} exclude each other there (a clock step between them)
 * @param fromDataNs how far {@code localNs} lies from the nearest anchor of the versions used, ns: the bounds are
 *     narrowest at an anchor and widen away from it
 * @param truncated whether {@code localNs} lies before the oldest version held while older versions of the node
 *     existed — dropped for the memory budget or the retention, by the topics' own retention or compaction, or, the
 *     history off, every version but the latest: those would have answered better
 */
public record ReferenceTime(String node, String component, String reference, long localNs, long referenceNs,
        OptionalLong lowerNs, OptionalLong upperNs, long version, OptionalLong next, Basis basis, long fromDataNs,
        boolean truncated) {

    /** The core's answer for {@code node}, whose component is {@code component}. */
    static ReferenceTime of(String node, String component, HistoricConversion c) {
        return new ReferenceTime(node, component, c.version().reference(), c.localNs(), c.nearestNs(),
                optional(c.lowerNs()), optional(c.upperNs()), c.version().number(),
                c.next() == null ? OptionalLong.empty() : OptionalLong.of(c.next().number()), c.basis(),
                c.fromDataNs(), c.truncated());
    }

    private static OptionalLong optional(Long ns) {
        return ns == null ? OptionalLong.empty() : OptionalLong.of(ns);
    }

    /** Whether both bounds are known. */
    public boolean bounded() {
        return lowerNs.isPresent() && upperNs.isPresent();
    }
}
