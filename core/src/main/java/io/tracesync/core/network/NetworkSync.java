package io.tracesync.core.network;

import io.tracesync.core.collect.NameIndex;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkQuality;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Live synchronization of a whole network (LIANA, [Jabbarifar 2013, ch. 5]): from link estimates, the minimum spanning
 * forest of the participating links, every tree's reference node and every node's factor to it with a guaranteed bound.
 *
 * <p>{@link #update} and {@link #remove} apply one change each in O(log n) amortized for the common cases (a new
 * link or a better estimate, [Jabbarifar 2013, Alg. 8]); {@link #drain} then recomputes only the factors the changes
 * since the last drain affect (Alg. 9) and returns the nodes whose answer changed. Not thread-safe.
 */
public final class NetworkSync {

    private final NetworkOptions options;
    private final NetworkStats stats = new NetworkStats();
    private final FactorPropagation factors;
    private final SpanningForest forest;
    private final NameIndex ids = new NameIndex();
    private final NetworkComponents components;
    private String pinnedName;
    private int vertices;

    public NetworkSync(NetworkOptions options) {
        this.options = options;
        FactorPropagation[] holder = new FactorPropagation[1];
        this.forest = new SpanningForest(v -> holder[0].dirtyRoot(v), stats, options.referenceRule());
        this.factors = new FactorPropagation(forest, stats);
        holder[0] = factors;
        this.components = new NetworkComponents(forest, factors);
        this.pinnedName = options.pinnedReference();
    }

    public NetworkOptions options() {
        return options;
    }

    public NetworkStats stats() {
        return stats;
    }

    SpanningForest forest() {
        return forest;
    }

    /** The internal id of a known node, 0 if unknown. */
    int vertexId(String node) {
        return ids.get(node);
    }

    /** Adds a node (its own component until it has a participating link); nothing if known. */
    public void addNode(String node) {
        node(node);
    }

    /**
     * The id of a node (&gt; 0), adding it if new: the handle of the int methods, which spare the name look-ups
     * of a caller that keeps ids.
     */
    public int node(String node) {
        int v = ids.get(node);
        if (v != 0) {
            return v;
        }
        int id = forest.addVertex(node);
        ids.put(node, id);
        components.restructured();
        vertices = Math.max(vertices, id);
        if (node.equals(pinnedName)) {
            pin(id);
        }
        return id;
    }

    /** The name of node id v. */
    public String name(int v) {
        return forest.name(v);
    }

    /**
     * Applies a link's latest estimate: a link that does not take part (see {@link NetworkOptions#weightOf})
     * leaves the graph; otherwise it enters or changes weight, and its new map reaches every node whose path
     * crosses it. The forest keeps the weight it holds of an accurate link that stays accurate while the new one
     * lies within a factor {@link NetworkOptions#weightSpread} of it: a link's weight, its slope accuracy, jitters
     * with every summary, and each rise of a tree link's weight costs a scan for a lighter link across its cut.
     * Returns the link's id ({@link #edge}), 0 if it left or takes no part.
     */
    public int update(LinkEstimate link) {
        return update(node(link.key().a()), node(link.key().b()), link);
    }

    /**
     * {@link #update(LinkEstimate)} for a caller that knows the ids of the link's ends: {@code a} and {@code b}
     * must be the ids of {@code link.key().a()} and {@code .b()}.
     */
    public int update(int a, int b, LinkEstimate link) {
        return update(a, b, link, Double.NaN);
    }

    /**
     * {@link #update(int, int, LinkEstimate)} with the weight the forest is to hold for an accurate link instead of
     * the one the rule gives ({@code forestWeight}; NaN: the rule's): what {@link #forestWeight} returned for the same
     * estimate, so that a network rebuilt from its links' estimates holds the forest the lost one held.
     */
    public int update(int a, int b, LinkEstimate link, double forestWeight) {
        if (!forest.name(a).equals(link.key().a()) || !forest.name(b).equals(link.key().b())) {
            throw new IllegalArgumentException("ids " + a + ", " + b + " are not the ends of " + link.key());
        }
        double w = options.weightOf(link);
        if (Double.isNaN(w)) {
            forest.remove(a, b);
            components.restructured();
            return 0;
        }
        int existing = forest.edge(a, b); // 0: a new link
        if (link.quality() == LinkQuality.ACCURATE && forestWeight >= 0) {
            w = forestWeight;
        } else if (existing != 0 && link.quality() == LinkQuality.ACCURATE
                && factors.link(existing).quality() == LinkQuality.ACCURATE && within(forest.weight(existing), w)) {
            w = forest.weight(existing);
        }
        int e = forest.upsert(existing, a, b, w);
        factors.setLink(e, link);
        components.linkChanged(e);
        if (forest.inTree(e)) {
            factors.dirtyEdge(e);
        }
        return e;
    }

    /** The weight the forest holds for link e (an id {@link #update} returned). */
    public double forestWeight(int e) {
        return forest.weight(e);
    }

    /**
     * Whether w lies within a factor {@link NetworkOptions#weightSpread} of {@code held} (both at least 0); never
     * with {@link NetworkMethod#TREE}, whose answers come from the tree's links.
     */
    private boolean within(double held, double w) {
        double spread = options.weightSpread();
        return spread > 1 && options.method() != NetworkMethod.TREE && w <= held * spread && held <= w * spread;
    }

    /**
     * The estimate of a link the network holds (the last applied), or null if the link takes no part; the slack of
     * its four constraints at the last evaluation from every link ({@link NetworkIntervals.Result#slack}) copied
     * into {@code slack}, or −1 in its first place where unknown: the components changed shape since, or the link
     * takes no part.
     */
    public LinkEstimate estimate(LinkKey key, long[] slack) {
        return estimate(edge(key), slack);
    }

    /** {@link #estimate(LinkKey, long[])} of the link with id {@code e} ({@link #edge}; 0: none). */
    public LinkEstimate estimate(int e, long[] slack) {
        if (e == 0 || !components.slack(e, slack)) {
            slack[0] = -1;
        }
        return e == 0 ? null : factors.link(e);
    }

    /**
     * The id of a link taking part, 0 if it takes none: what {@link #update} returned for it, valid until the link
     * leaves (an unusable estimate or {@link #remove}), after which another link may get it.
     */
    public int edge(LinkKey key) {
        int a = ids.get(key.a());
        int b = ids.get(key.b());
        return a == 0 || b == 0 ? 0 : forest.edge(a, b);
    }

    /** Removes a link (silent too long, or its state was dropped); nothing if unknown. */
    public void remove(LinkKey key) {
        int a = ids.get(key.a());
        int b = ids.get(key.b());
        if (a != 0 && b != 0) {
            remove(a, b);
        }
    }

    /** {@link #remove(LinkKey)} by the ids of the link's ends, in either order. */
    public void remove(int a, int b) {
        forest.remove(a, b);
        components.restructured();
    }

    /** The pinned reference node's name, or null. */
    public String pinnedReference() {
        return pinnedName;
    }

    /** Pins the reference node (null: none); takes effect for its tree at the next drain. */
    public void pinReference(String node) {
        pinnedName = node;
        pin(node == null ? 0 : ids.get(node));
    }

    private void pin(int v) {
        forest.references().pin(v);
    }

    /** Recomputes the factors affected since the last drain; the nodes whose answer changed, in no set order. */
    public List<NodeFactor> drain() {
        List<NodeFactor> out = new ArrayList<>();
        drain(v -> out.add(factor(v)));
        return out;
    }

    /**
     * {@link #drain()} without objects: passes the id of every node whose answer changed to {@code changed} (see
     * {@link #factor(int)}); returns their number.
     */
    public int drain(IntConsumer changed) {
        forest.references().settle(factors::dirtyRoot);
        return factors.drain(v -> {
            components.nodeChanged(v);
            changed.accept(v);
        });
    }

    /** The answer for a node as of the last drain, or null if unknown. */
    public NodeFactor factor(String node) {
        int v = ids.get(node);
        return v == 0 ? null : factor(v);
    }

    /** The answer for node id v as of the last drain, or null if it has none yet. */
    public NodeFactor factor(int v) {
        return factors.known(v) ? new NodeFactor(forest.name(v), forest.name(factors.reference(v)), factors.factor(v))
                : null;
    }

    /** Every node's answer as of the last drain, by name. */
    public List<NodeFactor> factors() {
        List<String> names = Arrays.asList(ids.names());
        Collections.sort(names);
        List<NodeFactor> out = new ArrayList<>(names.size());
        for (String name : names) {
            NodeFactor f = factor(name);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    public Set<String> nodes() {
        return Set.of(ids.names());
    }

    /** The factors of {@link #evaluate}, by node name, and the links found inconsistent and left out. */
    public record Evaluation(List<AnchoredFactor> factors, List<LinkKey> excluded, int iterations) {
    }

    /**
     * Every node's factor, by {@link NetworkOptions#method()}, with its guaranteed interval at one time per
     * component ({@link NetworkIntervals}), from
     * the spanning forest, references and tree factors of the last {@link #drain} and every usable link: the
     * component of reference r is evaluated at r's local time {@code atNs}, or at its default time when null —
     * then only the components a link, tree factor or tree link changed in since are solved again, the others
     * answer as they did. A node without a factor yet is left out.
     */
    public Evaluation evaluate(Long atNs) {
        return evaluate(options.method(), NetworkIntervals.Weighting.DEFAULT, atNs);
    }

    /** {@link #evaluate(Long)} with a method and a weighting of the least-squares fit of its own. */
    public Evaluation evaluate(NetworkMethod method, NetworkIntervals.Weighting weighting, Long atNs) {
        List<AnchoredFactor> out = new ArrayList<>();
        List<LinkKey> excluded = new ArrayList<>();
        int iterations = 0;
        for (NetworkIntervals.Component c : components()) {
            // a component nothing changed in since its last evaluation at its default time has the same answer
            NetworkIntervals.Result r = atNs == null ? c.kept(method, weighting) : null;
            if (r == null) {
                r = NetworkIntervals.compute(c, method, weighting, atNs);
                if (atNs == null) {
                    c.keep(method, weighting, r);
                }
            }
            out.addAll(Arrays.asList(r.factors()));
            excluded.addAll(r.excluded());
            iterations += r.iterations();
        }
        out.sort(Comparator.comparing(AnchoredFactor::node));
        excluded.sort(Comparator.naturalOrder());
        return new Evaluation(List.copyOf(out), List.copyOf(excluded), iterations);
    }

    /**
     * Every component of the last drain with its nodes (the reference first, then by name) and tree factors, and
     * every usable link between two of its nodes (see {@link NetworkComponents}).
     */
    List<NetworkIntervals.Component> components() {
        return components.current(vertices);
    }

    /** The spanning forest's edges, sorted. */
    public List<TreeEdge> tree() {
        List<TreeEdge> out = new ArrayList<>();
        for (int e : forest.treeEdgeIds()) {
            out.add(new TreeEdge(forest.name(forest.endA(e)), forest.name(forest.endB(e)), forest.weight(e)));
        }
        TreeEdge[] a = out.toArray(new TreeEdge[0]);
        Arrays.sort(a);
        return List.of(a);
    }
}
