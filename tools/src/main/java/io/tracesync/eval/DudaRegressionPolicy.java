package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.numeric.ClockMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A baseline, Duda et al.'s linear regression [Poirier 2010, §2], [Ashton 1995, §3]: per link, the
 * midpoint of the two directions' regression lines over every message seen so far ({@link LinkRegression}),
 * composed like the Trace Compass policy ({@link FewestHopTree}), so that it differs from that baseline only in
 * the link estimate.
 */
public final class DudaRegressionPolicy implements FactorPolicy {

    private final Map<LinkKey, LinkRegression> regressions = new TreeMap<>();
    private final FewestHopTree tree = new FewestHopTree();

    @Override
    public void accept(SendReceive pair, ConvexHullLink link) {
        LinkKey key = pair.link();
        boolean fromA = key.a().equals(pair.sender());
        regressions.computeIfAbsent(key, k -> new LinkRegression()).add(fromA, fromA ? pair.sendNs() : pair.recvNs(),
                fromA ? pair.recvNs() : pair.sendNs());
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        Map<LinkKey, ClockMap> usable = new TreeMap<>();
        regressions.forEach((k, r) -> {
            ClockMap m = r.estimate();
            if (m != null) {
                usable.put(k, m);
            }
        });
        return tree.drainAt(trueNs, FewestHopTree.nodesOf(regressions.keySet()), usable);
    }
}
