package io.tracesync.streams.network;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Factor;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code sync.factors} holds for every node, as the network task last published it: the reference, the factor
 * as a reader decodes it, the record's version and bound. The gate compares each new factor with it at every
 * emission, so that the store (which holds the same records, for queries and restarts) is only written, never read
 * back per node; and it gives the widest bound at the anchors, the one figure the progress line, the metric
 * {@code tracesync_bound_widest_seconds}, {@code /factors} and the live view all show.
 */
final class PublishedFactors {

    /** One node's published record, as the gate reads it; {@code boundPs} the larger bound, −1 when unbounded. */
    record Entry(String reference, Factor factor, long version, long boundPs) {
    }

    private final Map<String, Entry> byNode = new HashMap<>();
    private long widest = -1;
    /** Whether the widest bound may have shrunk (its node published a narrower one): found again when asked. */
    private boolean widestStale;

    void put(SyncFactor r) {
        long bound = r.getUpPs() == null || r.getDownPs() == null ? -1 : Math.max(r.getUpPs(), r.getDownPs());
        Entry old = byNode.put(r.getNode(),
                new Entry(r.getReference(), PublishedFactor.of(r).factor(), r.getVersion(), bound));
        if (bound >= widest) {
            widest = bound;
        } else if (old != null && old.boundPs() == widest) {
            widestStale = true;
        }
    }

    /** The node's published record, or null. */
    Entry get(String node) {
        return byNode.get(node);
    }

    /** The widest bound, in ps, or -1 while no published factor is bounded. */
    long widest() {
        if (widestStale) {
            widest = -1;
            for (Entry e : byNode.values()) {
                widest = Math.max(widest, e.boundPs());
            }
            widestStale = false;
        }
        return widest;
    }

    void clear() {
        byNode.clear();
        widest = -1;
        widestStale = false;
    }
}
