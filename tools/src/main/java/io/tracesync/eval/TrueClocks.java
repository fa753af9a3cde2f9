package io.tracesync.eval;

import io.tracesync.sim.GroundTruth;

/** What the metrics need of the ground truth: every node's reading at a true time, and the minimum delays. */
public interface TrueClocks {

    /** The timestamp {@code node} records at true time {@code trueNs}. */
    long localAt(String node, long trueNs);

    /** Minimum one-way delay from {@code sender} to {@code receiver} in ns, or null where unknown. */
    Long minDelayNs(String sender, String receiver);

    static TrueClocks of(GroundTruth truth) {
        return new TrueClocks() {
            @Override
            public long localAt(String node, long trueNs) {
                return truth.clock(node).localAt(trueNs);
            }

            @Override
            public Long minDelayNs(String sender, String receiver) {
                return truth.minDelayNs(sender, receiver);
            }
        };
    }
}
