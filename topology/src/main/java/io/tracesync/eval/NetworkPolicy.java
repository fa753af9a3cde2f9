package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.TreeEdge;
import io.tracesync.core.network.NodeFactor;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network core (#3) over the link core's estimates: tracesync itself with the default options (minimum
 * spanning forest, centroid reference), or with a pinned static reference, the alternative of thesis Fig. 5.10.
 */
public final class NetworkPolicy implements FactorPolicy {

    private final NetworkSync net;

    public NetworkPolicy(NetworkOptions options) {
        this.net = new NetworkSync(options);
    }

    /** The spanning forest as it stands. */
    public List<TreeEdge> tree() {
        return net.tree();
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        changed.forEach(k -> net.update(LinkEstimate.of(k, links.get(k))));
        return net.drain().stream().sorted(Comparator.comparing(NodeFactor::node))
                .map(f -> FactorRow.of(trueNs, f)).toList();
    }
}
