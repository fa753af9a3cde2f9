package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each node's clock may last have stepped, as its links saw it. A link restarts at the first pair that
 * contradicts the clock model (a step of either end's clock, or a wrong match); a step of a node's clock restarts
 * each of its links at its own first contradicting pair, within moments of each other. The restarts of a node's
 * links within {@link #SAME_STEP_NS} of its latest one count as one step, placed at the earliest of them: before it
 * the node's clock had not been seen to step. A factor of a node rests on one stretch of its clock and its
 * reference's from the later of their steps on ({@link #steadyFrom}); carried back before that it need not hold. A
 * restart of a link counts for both its ends, so a step of one end also bounds the other's stretch: safe, only less
 * tight.
 */
public final class Restarts {

    /** How far apart the restarts of one step's links may lie: more than a link's pairs take to see it. */
    public static final long SAME_STEP_NS = 10_000_000_000L;

    /** Per node, each of its links' latest restart on the node's clock. */
    private final Map<String, Map<LinkKey, Long>> byNode = new HashMap<>();

    /**
     * Notes that link {@code key} restarted at {@code restartNs} of a's clock ({@code Long.MIN_VALUE}: never), placed
     * on b's clock by {@code aToB} (null while the link has no estimate: b's is noted once it has one). A link's
     * restart only moves forward.
     */
    public void note(LinkKey key, long restartNs, ClockMap aToB) {
        if (restartNs == Long.MIN_VALUE) {
            return;
        }
        put(key.a(), key, restartNs);
        if (aToB != null) {
            put(key.b(), key, aToB.applyRounded(restartNs));
        }
    }

    private void put(String node, LinkKey key, long at) {
        byNode.computeIfAbsent(node, k -> new HashMap<>()).merge(key, at, Math::max);
    }

    /** The latest restart noted of a link, on its a end's clock; {@code Long.MIN_VALUE} if none. */
    public long restartOf(LinkKey key) {
        Map<LinkKey, Long> links = byNode.get(key.a());
        Long r = links == null ? null : links.get(key);
        return r == null ? Long.MIN_VALUE : r;
    }

    /** Where the node's clock last stepped, as its links saw it, on its clock; {@code Long.MIN_VALUE} if never. */
    public long of(String node) {
        Map<LinkKey, Long> links = byNode.get(node);
        if (links == null) {
            return Long.MIN_VALUE;
        }
        long latest = Long.MIN_VALUE;
        for (long r : links.values()) {
            latest = Math.max(latest, r);
        }
        long step = latest;
        for (long r : links.values()) {
            if (r < step && latest - r <= SAME_STEP_NS) {
                step = r;
            }
        }
        return step;
    }

    /**
     * The node's local time from which its factor to {@code reference}, mapping its clock by {@code toReference},
     * rests on one stretch of both clocks: the later of the node's last step and the reference's placed on the
     * node's clock; {@code Long.MIN_VALUE} if neither stepped.
     */
    public long steadyFrom(String node, String reference, ClockMap toReference) {
        long own = of(node);
        long ref = node.equals(reference) ? Long.MIN_VALUE : of(reference);
        return ref == Long.MIN_VALUE ? own : Math.max(own, toReference.inverse().applyRounded(ref));
    }
}
