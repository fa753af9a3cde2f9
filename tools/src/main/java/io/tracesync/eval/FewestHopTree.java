package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Trace Compass factor propagation (Poirier 2010 §2, after Duda's "factor-propagation step"): in every
 * connected component of the usable links, the alphabetically first node is the reference and every other node
 * reaches it by a fewest-hop path (breadth-first, neighbours in name order, so ties go to the smaller name); a
 * node's map is its links' a→b maps composed along that path, inverted where the path runs b→a. Unlike the
 * network core it keeps no bounds. Remembers what it last answered, to report only the factors that changed.
 */
final class FewestHopTree {

    private final Map<String, FactorRow> last = new HashMap<>();

    /**
     * The factors that changed at {@code trueNs} for {@code nodes}, given each usable link's a→b map; a node
     * without a usable link is its own reference.
     */
    List<FactorRow> drainAt(long trueNs, SortedSet<String> nodes, Map<LinkKey, ClockMap> usable) {
        Map<String, SortedSet<String>> neighbours = new HashMap<>();
        usable.keySet().forEach(k -> {
            neighbours.computeIfAbsent(k.a(), n -> new TreeSet<>()).add(k.b());
            neighbours.computeIfAbsent(k.b(), n -> new TreeSet<>()).add(k.a());
        });
        Map<String, FactorRow> now = new TreeMap<>();
        for (String root : nodes) {
            if (now.containsKey(root)) {
                continue;
            }
            now.put(root, new FactorRow(trueNs, root, root, ClockMap.IDENTITY, 0, 0));
            ArrayDeque<String> queue = new ArrayDeque<>(List.of(root));
            while (!queue.isEmpty()) {
                FactorRow parent = now.get(queue.poll());
                for (String child : neighbours.getOrDefault(parent.node(), new TreeSet<>())) {
                    if (!now.containsKey(child)) {
                        now.put(child, childRow(trueNs, child, parent, usable));
                        queue.add(child);
                    }
                }
            }
        }
        List<FactorRow> changed = new ArrayList<>();
        now.values().forEach(r -> {
            FactorRow before = last.put(r.node(), r);
            if (before == null || !before.reference().equals(r.reference()) || !before.map().equals(r.map())) {
                changed.add(r);
            }
        });
        return changed;
    }

    private static FactorRow childRow(long trueNs, String child, FactorRow parent, Map<LinkKey, ClockMap> usable) {
        LinkKey key = LinkKey.between(child, parent.node());
        ClockMap aToB = Objects.requireNonNull(usable.get(key), key::toString);
        ClockMap toParent = key.a().equals(child) ? aToB : aToB.inverse();
        return new FactorRow(trueNs, child, parent.reference(), toParent.andThen(parent.map()),
                LinkEstimate.UNBOUNDED, LinkEstimate.UNBOUNDED);
    }

    /** Every node of {@code links}, in name order. */
    static SortedSet<String> nodesOf(Set<LinkKey> links) {
        SortedSet<String> nodes = new TreeSet<>();
        links.forEach(k -> {
            nodes.add(k.a());
            nodes.add(k.b());
        });
        return nodes;
    }
}
