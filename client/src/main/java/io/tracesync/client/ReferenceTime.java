package io.tracesync.client;

import io.tracesync.core.network.Conversion;
import java.util.OptionalLong;

/**
 * A local timestamp converted to its component's reference clock: the reference's true time lies in
 * [{@code lowerNs}, {@code upperNs}] (empty while the factor is unbounded), and {@code referenceNs} is the map's
 * value rounded to the nearest nanosecond. Always lowerNs &lt;= referenceNs &lt;= upperNs.
 *
 * @param node the node whose clock {@code localNs} is read from
 * @param component the node's connected component, named by its reference node
 * @param reference the reference node whose clock {@code referenceNs} is in
 * @param localNs the converted timestamp, nanoseconds of the node's clock
 * @param referenceNs slope·localNs + offset, nanoseconds of the reference clock, rounded to the nearest (ties up)
 * @param lowerNs the guaranteed lower bound, rounded down
 * @param upperNs the guaranteed upper bound, rounded up
 * @param version the version of the factor used
 */
public record ReferenceTime(String node, String component, String reference, long localNs, long referenceNs,
        OptionalLong lowerNs, OptionalLong upperNs, long version) {

    /** The core's conversion with the factor it used. */
    static ReferenceTime of(PublishedFactor f, Conversion c) {
        return new ReferenceTime(f.node(), f.component(), f.reference(), c.localNs(), c.nearestNs(),
                optional(c.lowerNs()), optional(c.upperNs()), f.version());
    }

    private static OptionalLong optional(Long ns) {
        return ns == null ? OptionalLong.empty() : OptionalLong.of(ns);
    }

    /** Whether both bounds are known. */
    public boolean bounded() {
        return lowerNs.isPresent() && upperNs.isPresent();
    }
}
