package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.FactorGate;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.Restarts;
import io.tracesync.core.network.SlackGate;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.TreeEdge;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The network core over the link core's estimates: tracesync itself with the default options (minimum spanning
 * forest, reference near its centre, factors from every link), along the tree, or with a pinned static reference
 * [Jabbarifar 2013, Fig. 5.10]. The links' estimates reach it through a {@link SharedGate}, as the stream's link
 * summaries reach its network task; every node's factor is evaluated at each drain ({@link NetworkSync#evaluate})
 * and published through a {@link FactorGate}, as the network task publishes to {@code sync.factors}: each drain's
 * row of a node is the factor a subscriber holds then, the last one the gate let through.
 */
public final class NetworkPolicy implements FactorPolicy {

    private final NetworkSync net;
    private final NetworkIntervals.Weighting weighting;
    private final SharedGate gate;
    /** The summaries let through since the last drain, the last per link, with the restart each carries. */
    private final Map<LinkKey, Pending> pending = new TreeMap<>();
    /** The links' restarts as the summaries let through carry them: the factors' steady-from. */
    private final Restarts restarts = new Restarts();
    /** Which summaries the network applies, as the stream's network task ({@code null}: every one). */
    private final SlackGate slackGate;
    /** Which factors are published, and the last published of each node. */
    private final FactorGate factorGate;
    private final Map<String, AnchoredFactor> published = new HashMap<>();
    private long summaries;
    private long applied;
    private long evaluations;
    private long publications;

    /** Every change of a link reaches the network, every change of a factor is published (minimum changes 0). */
    public NetworkPolicy(NetworkOptions options) {
        this(options, NetworkIntervals.Weighting.DEFAULT, new SharedGate(0), 0);
    }

    /**
     * Link summaries let through as the stream's link step does, by {@code gate} (shared by the policies of one
     * replay at its {@code links.min.change}), factors published as its network task does at
     * {@code factors.min.change} = {@code factorsMinChange}.
     */
    NetworkPolicy(NetworkOptions options, NetworkIntervals.Weighting weighting, SharedGate gate,
            double factorsMinChange) {
        this.net = new NetworkSync(options);
        this.weighting = weighting;
        this.gate = gate;
        this.slackGate = gate.minChange() > 0 ? new SlackGate(gate.minChange()) : null;
        this.factorGate = new FactorGate(factorsMinChange, options.excursionPs());
    }

    @Override
    public void accept(SendReceive pair, ConvexHullLink link) {
        LinkEstimate summary = gate.offer(pair.link(), link);
        if (summary != null) {
            pending.put(pair.link(), new Pending(summary, link.restartedNs()));
            summaries++;
        }
    }

    /** The link summaries let through so far. */
    public long summaries() {
        return summaries;
    }

    /** Of those, the ones the network applied (the last of each link's between two drains, where it mattered). */
    public long applied() {
        return applied;
    }

    /** The nodes' factors evaluated so far, one per node and drain. */
    public long evaluations() {
        return evaluations;
    }

    /** Of those, the ones the factor gate published. */
    public long publications() {
        return publications;
    }

    /** The spanning forest as it stands. */
    public List<TreeEdge> tree() {
        return net.tree();
    }

    @Override
    public List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed) {
        for (Pending p : pending.values()) {
            if (slackGate == null || slackGate.matters(net, restarts, p.summary, p.restartNs)) {
                net.update(p.summary);
                restarts.note(p.summary.key(), p.restartNs, p.summary.aToB());
                applied++;
            }
        }
        pending.clear();
        net.drain();
        return net.evaluate(net.options().method(), weighting, null).factors().stream()
                .map(this::publish)
                .map(f -> FactorRow.of(trueNs, f, restarts.steadyFrom(f.node(), f.reference(),
                        f.factor().toReference()))).toList();
    }

    /** The factor a subscriber holds after this evaluation of its node: {@code now} if the gate lets it through. */
    private AnchoredFactor publish(AnchoredFactor now) {
        evaluations++;
        AnchoredFactor old = published.get(now.node());
        if (old == null || factorGate.matters(old.reference(), old.factor(), now.reference(), now.factor(),
                now.excursionPs())) {
            published.put(now.node(), now);
            publications++;
            return now;
        }
        return old;
    }

    private record Pending(LinkEstimate summary, long restartNs) {
    }
}
