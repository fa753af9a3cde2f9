package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One region of a network solved in regions ({@link RegionalSync}): its own links and, for each end of a link
 * between regions that has a factor from the {@link Backbone}, a <em>tie</em> — a link made of that factor — to a
 * node standing for the clock of the factor's reference (named {@link Backbone#HUB} + the reference, pinned as the
 * reference). Every node is then bounded by the tightest of its paths through the region to any end and on through
 * the backbone: the bounds are path lengths [Patt-Shamir & Rajsbaum 1994], and a path's stretch inside the region
 * is here in full. A component of the region without a tie answers to its own reference, as the region alone would.
 */
public final class Region {

    private final NetworkSync network;
    private final String ownPin;
    private final Map<String, LinkKey> ties = new HashMap<>();

    /** A region with the network's options; a pinned reference only where it is one of the region's nodes. */
    public Region(NetworkOptions options) {
        network = new NetworkSync(options);
        ownPin = options.pinnedReference();
    }

    /** Applies the latest estimate of a link between two of the region's nodes. */
    public void update(LinkEstimate link) {
        network.update(link);
    }

    /** Adds a node (an end of links between regions only, or not linked yet). */
    public void addNode(String node) {
        network.addNode(node);
    }

    public void remove(LinkKey key) {
        network.remove(key);
    }

    public Set<String> nodes() {
        Set<String> out = new HashSet<>();
        network.nodes().forEach(n -> {
            if (!Backbone.isHub(n)) {
                out.add(n);
            }
        });
        return out;
    }

    /**
     * Every node's factor to its reference, by name, the region's ends tied by their factors from the backbone
     * ({@code backbone}, by name; names that are no node of the region are passed over). A reference is always a
     * node's name: the stand-in of a reference's clock answers by the reference's.
     */
    public Map<String, AnchoredFactor> answer(Map<String, NodeFactor> backbone) {
        Set<String> stale = new HashSet<>(ties.keySet());
        String pin = null;
        for (Map.Entry<String, NodeFactor> e : backbone.entrySet()) {
            String u = e.getKey();
            if (Backbone.isHub(u) || network.vertexId(u) == 0) {
                continue;
            }
            NodeFactor g = e.getValue();
            LinkKey key = g.factor().bounded() ? new LinkKey(u, Backbone.HUB + Backbone.node(g.reference())) : null;
            LinkKey was = key == null ? ties.remove(u) : ties.put(u, key);
            if (was != null && !was.equals(key)) {
                network.remove(was);
            }
            if (key != null) {
                network.update(Backbone.link(key, g.factor()));
                stale.remove(u);
                pin = pin == null || key.b().compareTo(pin) < 0 ? key.b() : pin;
            }
        }
        for (String u : stale) {
            LinkKey was = ties.remove(u);
            if (was != null) {
                network.remove(was);
            }
        }
        pin = pin != null ? pin : ownPin;
        if (!Objects.equals(pin, network.pinnedReference())) {
            network.pinReference(pin);
        }
        network.drain();
        Map<String, AnchoredFactor> out = new HashMap<>();
        for (AnchoredFactor f : network.evaluate(null).factors()) {
            if (!Backbone.isHub(f.node())) {
                out.put(f.node(), Backbone.isHub(f.reference()) ? new AnchoredFactor(f.node(),
                        Backbone.node(f.reference()), f.factor(), f.evaluatedAtNs(), f.treeUpPs(), f.treeDownPs(),
                        f.method()) : f);
            }
        }
        return out;
    }
}
