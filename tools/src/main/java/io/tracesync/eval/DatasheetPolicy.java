package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.Restarts;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The second guarantee: every node's interval under the datasheet alone (each clock's rate within ±R of true), from
 * each link's {@link LinkEstimate#datasheet} — its latest messages each way, carried by the slopes R allows —
 * combined over every link as tracesync combines the model's intervals ({@link NetworkSync#evaluate}), at each
 * drain.
 */
final class DatasheetPolicy implements FactorPolicy {

    private final NetworkSync net;
    private final Restarts restarts = new Restarts();

    DatasheetPolicy(NetworkOptions options) {
        this.net = new NetworkSync(options.withMethod(NetworkMethod.ALL_LINKS));
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        for (LinkKey k : changed) {
            ConvexHullLink link = links.get(k);
            LinkEstimate e = LinkEstimate.datasheet(k, link);
            net.update(e);
            restarts.note(k, link.restartedNs(), e.aToB());
        }
        net.drain();
        return net.evaluate(NetworkMethod.ALL_LINKS, NetworkIntervals.Weighting.DEFAULT, null).factors().stream()
                .map(f -> FactorRow.of(trueNs, f, restarts.steadyFrom(f.node(), f.reference(),
                        f.factor().toReference()))).toList();
    }
}
