package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each node's clock may last have stepped, as its links saw it: the latest restart of any of its links (a pair
 * that contradicted the clock model — a step of either end's clock, or a wrong match), on the node's clock. A factor
 * of a node rests on one stretch of its clock and its reference's from the later of their restarts on
 * ({@link #steadyFrom}); carried back before that, across a possible step, it need not hold. A restart of a link
 * counts for both its ends, so a step of one end also bounds the other's stretch: safe, only less tight.
 */
public final class Restarts {

    private final Map<String, Long> latest = new HashMap<>();

    /**
     * Notes that link {@code key} restarted at {@code restartNs} of a's clock ({@code Long.MIN_VALUE}: never), placed
     * on b's clock by {@code aToB} (null while the link has no estimate: b's is noted once it has one). A node's
     * restart only moves forward.
     */
    public void note(LinkKey key, long restartNs, ClockMap aToB) {
        if (restartNs == Long.MIN_VALUE) {
            return;
        }
        latest.merge(key.a(), restartNs, Math::max);
        if (aToB != null) {
            latest.merge(key.b(), aToB.applyRounded(restartNs), Math::max);
        }
    }

    /** The latest restart of the node's links on its clock, {@code Long.MIN_VALUE} if none. */
    public long of(String node) {
        return latest.getOrDefault(node, Long.MIN_VALUE);
    }

    /**
     * The node's local time from which its factor to {@code reference}, mapping its clock by {@code toReference},
     * rests on one stretch of both clocks: the later of the node's latest restart and the reference's placed on the
     * node's clock; {@code Long.MIN_VALUE} if neither restarted.
     */
    public long steadyFrom(String node, String reference, ClockMap toReference) {
        long own = of(node);
        long ref = node.equals(reference) ? Long.MIN_VALUE : of(reference);
        return ref == Long.MIN_VALUE ? own : Math.max(own, toReference.inverse().applyRounded(ref));
    }
}
