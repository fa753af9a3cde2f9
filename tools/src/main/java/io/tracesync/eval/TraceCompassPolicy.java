package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.numeric.ClockMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Trace Compass policy, a baseline: the same convex hulls and Duda bisectors as tracesync
 * (Duda 1987 via Poirier 2010 §3, the link core #2), but composed from the alphabetically first node along
 * fewest-hop paths over the ACCURATE links ({@link FewestHopTree}) instead of the minimum spanning tree and a
 * reference at its centre [Jabbarifar 2013, ch. 5].
 */
public final class TraceCompassPolicy implements FactorPolicy {

    private final FewestHopTree tree = new FewestHopTree();

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        Map<LinkKey, ClockMap> accurate = new TreeMap<>();
        links.forEach((k, link) -> {
            if (link.quality() == LinkQuality.ACCURATE) {
                accurate.put(k, link.estimate());
            }
        });
        return tree.drainAt(trueNs, FewestHopTree.nodesOf(links.keySet()), accurate);
    }
}
