package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One region of a network solved in regions ({@link RegionalSync}), its own links in two networks:
 * <ul>
 *   <li>{@code own}, with its components' own references, whose factors tie the region's ends to their hubs in the
 *       {@link Backbone} ({@link #ownFactors});</li>
 *   <li>{@code closing}, where each end with a backbone factor is tied by it to a node standing for the clock of
 *       that factor's reference (named {@link Backbone#HUB} + the reference, pinned): every node of the region is
 *       bounded by the tightest of its paths through the region to any end and on through the backbone — the
 *       bounds are path lengths [Patt-Shamir & Rajsbaum 1994], and a path's last stretch in the region is here in
 *       full ({@link #close}).</li>
 * </ul>
 */
public final class Region {

    private final NetworkSync own;
    private final NetworkSync closing;
    private final Map<String, LinkKey> ties = new HashMap<>();
    private Map<String, NodeFactor> lastOwn = Map.of();

    /** A region with the network's options; a pinned reference only where it is one of the region's nodes. */
    public Region(NetworkOptions options) {
        own = new NetworkSync(options);
        closing = new NetworkSync(options.withPinnedReference(null));
    }

    /** Applies the latest estimate of a link between two of the region's nodes. */
    public void update(LinkEstimate link) {
        own.update(link);
        closing.update(link);
    }

    /** Adds a node (an end of links between regions only, or not linked yet). */
    public void addNode(String node) {
        own.addNode(node);
        closing.addNode(node);
    }

    public void remove(LinkKey key) {
        own.remove(key);
        closing.remove(key);
    }

    public Set<String> nodes() {
        return own.nodes();
    }

    /** Every node's factor to its component's reference in the region alone, by name; kept for {@link #close}. */
    public Map<String, NodeFactor> ownFactors() {
        own.drain();
        Map<String, NodeFactor> out = new HashMap<>();
        own.evaluate(null).factors().forEach(f -> out.put(f.node(), f.nodeFactor()));
        lastOwn = out;
        return out;
    }

    /**
     * Every node's factor to its reference, by name, from the backbone's factors of the region's ends and hubs
     * ({@code backbone}, by name): through the closing network where a node reaches an end, else its last
     * {@link #ownFactors} followed by its hub's backbone factor ({@link Factor#then}), or alone where its hub has
     * none.
     */
    public Map<String, NodeFactor> close(Map<String, NodeFactor> backbone) {
        Set<String> stale = new HashSet<>(ties.keySet());
        String pin = null;
        List<String> ends = new ArrayList<>();
        backbone.keySet().stream().filter(n -> !Backbone.isHub(n)).forEach(ends::add);
        for (String u : ends) {
            NodeFactor g = backbone.get(u);
            LinkKey key = !g.factor().bounded() || !own.nodes().contains(u) ? null
                    : new LinkKey(u, Backbone.HUB + Backbone.node(g.reference()));
            LinkKey was = key == null ? ties.remove(u) : ties.put(u, key);
            if (was != null && !was.equals(key)) {
                closing.remove(was);
            }
            if (key != null) {
                closing.update(Backbone.link(key, g.factor()));
                stale.remove(u);
                pin = pin == null || key.b().compareTo(pin) < 0 ? key.b() : pin;
            }
        }
        for (String u : stale) {
            LinkKey was = ties.remove(u);
            if (was != null) {
                closing.remove(was);
            }
        }
        Map<String, NodeFactor> out = new HashMap<>();
        if (ties.isEmpty()) {
            lastOwn.values().forEach(f -> out.put(f.node(), throughHub(f, backbone)));
            return out;
        }
        if (!Objects.equals(pin, closing.pinnedReference())) {
            closing.pinReference(pin);
        }
        closing.drain();
        for (AnchoredFactor f : closing.evaluate(null).factors()) {
            if (Backbone.isHub(f.node())) {
                continue; // a reference's clock
            }
            out.put(f.node(), Backbone.isHub(f.reference())
                    ? new NodeFactor(f.node(), Backbone.node(f.reference()), f.factor())
                    : throughHub(lastOwn.getOrDefault(f.node(), f.nodeFactor()), backbone));
        }
        return out;
    }

    /** A node's region factor followed by its hub's backbone factor; the region factor where the hub has none. */
    private static NodeFactor throughHub(NodeFactor f, Map<String, NodeFactor> backbone) {
        NodeFactor hub = backbone.get(Backbone.HUB + f.reference());
        return hub == null ? f
                : new NodeFactor(f.node(), Backbone.node(hub.reference()), f.factor().then(hub.factor()));
    }
}
