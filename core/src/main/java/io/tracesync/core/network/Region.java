package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
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
    /** The identity between the reference's stand-in and the reference, where it is a node of the region. */
    private LinkKey anchor;

    /** A region with the network's options; a pinned reference only where it is one of the region's nodes. */
    public Region(NetworkOptions options) {
        network = new NetworkSync(options);
        ownPin = options.pinnedReference();
    }

    /** The id of a link of the region's that takes part ({@link NetworkSync#edge}), 0 for any other. */
    public int edge(LinkKey key) {
        return network.edge(key);
    }

    /** Applies the latest estimate of a link between two of the region's nodes. */
    public void update(LinkEstimate link) {
        network.update(link);
    }

    /**
     * {@link NetworkSync#update(int, int, LinkEstimate, double)} of a link between two of the region's nodes: the
     * forest to hold {@code forestWeight} for it (NaN: its rule's weight); returns the weight the forest holds, NaN
     * where the link takes no part.
     */
    public double update(LinkEstimate link, double forestWeight) {
        int e = network.update(network.node(link.key().a()), network.node(link.key().b()), link, forestWeight);
        return e == 0 ? Double.NaN : network.forestWeight(e);
    }

    /**
     * Whether the region must apply {@code now}, a summary of one of its links that last restarted at
     * {@code restartNs}, in place of the estimate it holds ({@link SlackGate}, with the slack of the region's last
     * answer: the ties to the backbone are links of its network too).
     */
    public boolean matters(SlackGate gate, Restarts restarts, LinkEstimate now, long restartNs) {
        return gate.matters(network, restarts, now, restartNs);
    }

    /** Adds a node (an end of links between regions only, or not linked yet). */
    public void addNode(String node) {
        network.addNode(node);
    }

    public void remove(LinkKey key) {
        network.remove(key);
    }

    /**
     * Where the reference whose stand-in is {@code top} is a node of the region, ties the two by the identity (1 ps,
     * at a time {@code atNs} near the ties' so that it constrains them): the ties carry what the last exchanges knew,
     * and without this the region would know its own reference only through them, each exchange adding its
     * roundings to the last.
     */
    private void anchor(String top, long atNs) {
        LinkKey key = top == null || network.vertexId(Backbone.node(top)) == 0 ? null
                : new LinkKey(Backbone.node(top), top);
        if (anchor != null && !anchor.equals(key)) {
            network.remove(anchor);
        }
        if (key != null) {
            tie(Backbone.link(key, new Factor(ClockMap.IDENTITY, 0, 0, atNs, 0, 0)));
        }
        anchor = key;
    }

    /**
     * Applies a tie with the weight its rule gives, never one held from an earlier tie
     * ({@link NetworkOptions#weightSpread}): the forest then depends on the ties as they are, not on their history,
     * and a region rebuilt from its links and the latest ties holds the forest the lost one held.
     */
    private void tie(LinkEstimate link) {
        network.update(network.node(link.key().a()), network.node(link.key().b()), link,
                network.options().weightOf(link));
    }

    /**
     * Every node's factor to its reference, by name, the region's ends tied by their factors from the backbone
     * ({@code backbone}, by name; names that are no node of the region are passed over). A reference is always a
     * node's name: the stand-in of a reference's clock answers by the reference's.
     */
    public Map<String, AnchoredFactor> answer(Map<String, NodeFactor> backbone) {
        Set<String> stale = new HashSet<>(ties.keySet());
        String pin = null;
        long pinnedAt = 0;
        for (Map.Entry<String, NodeFactor> e : backbone.entrySet()) {
            String u = e.getKey();
            if (Backbone.isHub(u) || network.vertexId(u) == 0) {
                continue;
            }
            NodeFactor g = e.getValue();
            LinkKey key = g.factor().bounded() ? new LinkKey(u, Backbone.HUB + g.reference()) : null;
            LinkKey was = key == null ? ties.remove(u) : ties.put(u, key);
            if (was != null && !was.equals(key)) {
                network.remove(was);
            }
            if (key != null) {
                tie(Backbone.link(key, g.factor()));
                stale.remove(u);
                if (pin == null || key.b().compareTo(pin) < 0) {
                    pin = key.b();
                    // the time the backbone evaluated at, on the reference's clock: no later than the links' data
                    pinnedAt = g.factor().toReference().applyRounded(g.factor().anchorNs());
                }
            }
        }
        for (String u : stale) {
            LinkKey was = ties.remove(u);
            if (was != null) {
                network.remove(was);
            }
        }
        anchor(pin, pinnedAt);
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
