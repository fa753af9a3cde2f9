package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.TreeEdge;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network core over the link core's estimates: tracesync itself with the default options (minimum spanning
 * forest, centroid reference), or with a pinned static reference [Jabbarifar 2013, Fig. 5.10]. With a
 * {@link NetworkMethod}, every node's factor is evaluated at each drain ({@link NetworkSync#evaluate}); without,
 * the tree factors are taken as composed, with the bounds of each link at its own latest time.
 */
public final class NetworkPolicy implements FactorPolicy {

    private final NetworkSync net;
    private final NetworkMethod method;
    private final NetworkIntervals.Weighting weighting;

    public NetworkPolicy(NetworkOptions options) {
        this(options, null, null);
    }

    public NetworkPolicy(NetworkOptions options, NetworkMethod method, NetworkIntervals.Weighting weighting) {
        this.net = new NetworkSync(options);
        this.method = method;
        this.weighting = weighting;
    }

    /** The spanning forest as it stands. */
    public List<TreeEdge> tree() {
        return net.tree();
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        changed.forEach(k -> net.update(LinkEstimate.of(k, links.get(k))));
        List<NodeFactor> drained = net.drain();
        if (method == null) {
            return drained.stream().sorted(Comparator.comparing(NodeFactor::node))
                    .map(f -> FactorRow.of(trueNs, f)).toList();
        }
        return net.evaluate(method, weighting, null).factors().stream().map(f -> FactorRow.of(trueNs, f)).toList();
    }
}
