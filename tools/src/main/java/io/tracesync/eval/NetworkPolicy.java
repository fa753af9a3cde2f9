package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.TreeEdge;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network core over the link core's estimates: tracesync itself with the default options (minimum spanning
 * forest, centroid reference, factors from every link), along the tree, or with a pinned static reference
 * [Jabbarifar 2013, Fig. 5.10]. Every node's factor is evaluated at each drain ({@link NetworkSync#evaluate}).
 */
public final class NetworkPolicy implements FactorPolicy {

    private final NetworkSync net;
    private final NetworkIntervals.Weighting weighting;

    public NetworkPolicy(NetworkOptions options) {
        this(options, NetworkIntervals.Weighting.DEFAULT);
    }

    public NetworkPolicy(NetworkOptions options, NetworkIntervals.Weighting weighting) {
        this.net = new NetworkSync(options);
        this.weighting = weighting;
    }

    /** The spanning forest as it stands. */
    public List<TreeEdge> tree() {
        return net.tree();
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        changed.forEach(k -> net.update(LinkEstimate.of(k, links.get(k))));
        net.drain();
        return net.evaluate(net.options().method(), weighting, null).factors().stream()
                .map(f -> FactorRow.of(trueNs, f)).toList();
    }
}
