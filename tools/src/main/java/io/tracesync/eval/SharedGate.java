package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.SummaryGate;

/**
 * One {@link SummaryGate} for the policies of one replay: {@link Replay} hands each pair to every policy in turn,
 * so the first to ask after a pair passes it through the gate and the others take the same answer.
 */
final class SharedGate {

    private final SummaryGate gate;
    private final double minChange;
    private ConvexHullLink lastLink;
    private long lastPairs = -1;
    private LinkEstimate last;

    SharedGate(double minChange) {
        this.gate = new SummaryGate(minChange);
        this.minChange = minChange;
    }

    /** The replay's {@code links.min.change}. */
    double minChange() {
        return minChange;
    }

    /** The link's summary if the network must hear of it after its latest pair, else null. */
    LinkEstimate offer(LinkKey key, ConvexHullLink link) {
        if (link != lastLink || link.pairs() != lastPairs) {
            last = gate.offer(key, link);
            lastLink = link;
            lastPairs = link.pairs();
        }
        return last;
    }
}
