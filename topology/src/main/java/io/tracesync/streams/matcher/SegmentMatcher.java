package io.tracesync.streams.matcher;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.state.BeforeCommit;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Matches each packet's send with its receive by segment key (Jabbarifar 2013 §3.6.1, the matching module): a
 * hash lookup per event, the first send × the first receive of a flow from two different nodes giving one
 * {@link MatchedPair}, forwarded keyed by its link in a {@link MatchedPairs} batch (of one, or of the link's pairs
 * until the next commit: {@link PairBatches}). Unmatched entries are flushed the thesis' way, by two rotating
 * tables: an entry lives in the current generation and the previous one, generations being wall-clock periods of
 * {@code rotation} — never the events' own timestamps, which are on unsynchronized clocks. A generation also ends
 * early when more than {@code maxPending} keys would be held, so the store never holds more. An exact copy of a
 * flow's recorded send or receive (same node, direction, timestamp and segment) is a dead letter; a retransmission
 * (a later timestamp) is only counted.
 */
public final class SegmentMatcher extends ContextualProcessor<String, TraceEvent, LinkId, MatchedPairs> {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentMatcher.class);

    private final String storeName;
    private final long rotationMs;
    private final long maxPending;
    private final PipelineStats stats;
    private final String batchStore;
    private KeyValueStore<String, SegmentFlows> store;
    private PairBatches batches;
    private long forcedRotations;
    private long pending;

    /** A matcher forwarding each pair at once, as a batch of one. */
    public SegmentMatcher(String storeName, Duration rotation, long maxPending, PipelineStats stats) {
        this(storeName, rotation, maxPending, stats, null);
    }

    /**
     * @param batchStore a {@link BeforeCommit} store connected to this processor: each link's pairs are then
     *                   forwarded together just before the task's next commit ({@link PairBatches}); null: at once
     */
    public SegmentMatcher(String storeName, Duration rotation, long maxPending, PipelineStats stats,
            String batchStore) {
        this.storeName = storeName;
        if (maxPending < 1) {
            throw new IllegalArgumentException("matcher.max.pending must be at least 1: " + maxPending);
        }
        this.rotationMs = rotation.toMillis();
        this.maxPending = maxPending;
        this.stats = stats;
        this.batchStore = batchStore;
    }

    /**
     * The matcher's persistent store of unmatched and recently matched flows, behind a write-back buffer: a send and
     * its receive within one commit interval cost one RocksDB write and one changelog record instead of two, and
     * neither is serialized before the commit.
     */
    public static StoreBuilder<KeyValueStore<String, SegmentFlows>> store(String name) {
        return WriteBackStoreBuilder.persistent(name, Serdes.String(), SegmentFlows.serde());
    }

    @Override
    public void init(ProcessorContext<LinkId, MatchedPairs> context) {
        super.init(context);
        store = context.getStateStore(storeName);
        if (batchStore != null) {
            batches = new PairBatches(context);
            context.<BeforeCommit>getStateStore(batchStore).listen(batches);
        }
        try (KeyValueIterator<String, SegmentFlows> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                pending++;
            }
        }
        stats.pendingSegments.addAndGet(pending);
        context.schedule(Duration.ofMillis(rotationMs), PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    @Override
    public void process(Record<String, TraceEvent> record) {
        TraceEvent e = record.value();
        stats.events.incrementAndGet();
        SegmentFlows held = store.get(record.key());
        if (held == null) {
            makeRoom();
        }
        long generation = generation();
        // a copy: the store holds values by reference, and a dead letter below must leave the held flows as they were
        List<Flow> flows = held == null ? new ArrayList<>(1) : new ArrayList<>(held.flows);
        boolean changed = expire(flows, generation);
        Flow flow = find(flows, e);
        Sighting seen = new Sighting(e.getNode(), e.getTsNs());
        if (flow == null) {
            flow = Flow.of(e, generation);
            flow.set(e.getDirection(), seen);
            flows.add(flow);
            changed = true;
        } else if (seen.equals(flow.side(e.getDirection()))) {
            throw new InvalidTraceEventException("duplicate event: node " + e.getNode() + " already recorded this "
                    + e.getDirection() + " at " + e.getTsNs() + " (segment " + record.key() + ")");
        } else if (flow.matched || flow.side(e.getDirection()) != null) {
            stats.duplicates.incrementAndGet();
        } else if (flow.other(e.getDirection()).node().equals(e.getNode())) {
            throw new InvalidTraceEventException("node " + e.getNode() + " sends to itself (segment " + record.key()
                    + ")");
        } else {
            flow.set(e.getDirection(), seen);
            flow.matched = true;
            changed = true;
            forward(record, flow);
        }
        if (changed) {
            save(record.key(), held == null, flows);
        }
    }

    private void forward(Record<String, TraceEvent> record, Flow flow) {
        String s = flow.send.node();
        String r = flow.recv.node();
        LinkId link = s.compareTo(r) < 0 ? new LinkId(s, r) : new LinkId(r, s);
        MatchedPair pair = new MatchedPair(s, flow.send.tsNs(), r, flow.recv.tsNs());
        stats.pairs.incrementAndGet();
        if (batches != null) {
            batches.add(record, link, pair);
        } else {
            context().forward(record.withKey(link).withValue(new MatchedPairs(List.of(pair))));
        }
    }

    /** The flow this event belongs to: same connection, and not already holding this side from another copy. */
    private static Flow find(List<Flow> flows, TraceEvent e) {
        for (Flow f : flows) {
            if (f.sameConnection(e)) {
                Sighting same = f.side(e.getDirection());
                if (f.matched || same == null || same.node().equals(e.getNode())) {
                    return f;
                }
            }
        }
        return null;
    }

    private void save(String key, boolean isNew, List<Flow> flows) {
        if (flows.isEmpty()) {
            if (!isNew) {
                store.delete(key);
                pending--;
                stats.pendingSegments.decrementAndGet();
            }
            return;
        }
        store.put(key, new SegmentFlows(flows));
        if (isNew) {
            pending++;
            stats.pendingSegments.incrementAndGet();
        }
    }

    /** Before a new key is stored: ends generations early until it fits under {@code maxPending}. */
    private void makeRoom() {
        while (pending >= maxPending) {
            forcedRotations++;
            LOG.info("matcher holds {} segment keys (max {}): ending the generation early", pending, maxPending);
            flush();
        }
    }

    private long generation() {
        return context().currentSystemTimeMs() / rotationMs + forcedRotations;
    }

    /** Drops flows older than the previous generation; true if any was dropped. */
    private boolean expire(List<Flow> flows, long generation) {
        boolean dropped = false;
        for (int i = flows.size() - 1; i >= 0; i--) {
            Flow f = flows.get(i);
            if (f.generation < generation - 1) {
                if (!f.matched) {
                    stats.expiredUnmatched.incrementAndGet();
                }
                flows.remove(i);
                dropped = true;
            }
        }
        return dropped;
    }

    /** The rotation: forgets every flow older than the previous generation. */
    private void flush() {
        long generation = generation();
        List<KeyValue<String, SegmentFlows>> changes = new ArrayList<>();
        try (KeyValueIterator<String, SegmentFlows> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, SegmentFlows> kv = it.next();
                if (expire(kv.value.flows, generation)) {
                    changes.add(kv);
                }
            }
        }
        for (KeyValue<String, SegmentFlows> kv : changes) {
            save(kv.key, false, kv.value.flows);
        }
    }
}
