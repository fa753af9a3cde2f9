package io.tracesync.bench;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulation's true pairs batched per link and commit interval of their receive's true time, as the {@code pairs}
 * hop batches them, fed to the application's link step ({@link LinkStep}) at each commit; each batch's outcome goes
 * to a {@link Listener}.
 */
final class CommitFeed implements SimulationSink {

    /** What one link's batch of one commit gave. */
    interface Listener {
        void committed(Link link, long atNs, int pairs, List<LinkSummary> summaries);
    }

    /** One link: its name, its ends' node indices (a, b in the name's order) and its first pair's true time. */
    static final class Link {
        final LinkId id;
        final int a;
        final int b;
        final long firstNs;
        final List<MatchedPair> batch = new ArrayList<>();

        Link(LinkId id, int a, int b, long firstNs) {
            this.id = id;
            this.a = a;
            this.b = b;
            this.firstNs = firstNs;
        }
    }

    private final Scenario scenario;
    private final LinkStep step;
    private final long commitNs;
    private final Listener listener;
    private final Map<Long, Link> links = new HashMap<>();
    private final List<Link> pending = new ArrayList<>();
    private long open;

    CommitFeed(Scenario scenario, LinkStep step, long commitNs, Listener listener) {
        this.scenario = scenario;
        this.step = step;
        this.commitNs = commitNs;
        this.listener = listener;
    }

    Collection<Link> links() {
        return links.values();
    }

    @Override
    public void traceEvent(TraceEvent event) {
    }

    @Override
    public void clockBreakpoint(int node, long trueNs, long localNs) {
    }

    @Override
    public void pair(MatchedSegment p) {
        long interval = (p.trueRecvNs() - SimulationConfig.START_NS) / commitNs;
        if (interval != open) {
            commit();
            open = interval;
        }
        String sender = scenario.node(p.sender()).name();
        String receiver = scenario.node(p.receiver()).name();
        Link link = links.computeIfAbsent((long) Math.min(p.sender(), p.receiver()) << 32
                | Math.max(p.sender(), p.receiver()), k -> sender.compareTo(receiver) < 0
                ? new Link(new LinkId(sender, receiver), p.sender(), p.receiver(), p.trueRecvNs())
                : new Link(new LinkId(receiver, sender), p.receiver(), p.sender(), p.trueRecvNs()));
        if (link.batch.isEmpty()) {
            pending.add(link);
        }
        link.batch.add(new MatchedPair(sender, p.sendNs(), receiver, p.recvNs()));
    }

    /** The open interval's commit: each link's batch, then the store's write-back. */
    void commit() {
        long at = SimulationConfig.START_NS + (open + 1) * commitNs;
        for (Link link : pending) {
            listener.committed(link, at, link.batch.size(), step.process(link.id, link.batch, at / 1_000_000));
            link.batch.clear();
        }
        pending.clear();
        step.commit();
    }
}
