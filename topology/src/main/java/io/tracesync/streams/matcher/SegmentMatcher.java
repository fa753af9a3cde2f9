package io.tracesync.streams.matcher;

import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.TraceEvent;
import io.tracesync.core.matching.PacketFlow.Sighting;
import io.tracesync.core.matching.PacketFlow;
import io.tracesync.streams.errors.InvalidTraceEventException;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.BeforeCommit;
import io.tracesync.streams.state.WriteBackStoreBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Matches each packet's send with its receive by segment key (Jabbarifar 2013 §3.6.1, the matching module): a
 * hash lookup per event, the first send × the first receive of a flow from two different nodes giving one
 * {@link MatchedPair}, forwarded keyed by its link in a {@link MatchedPairs} batch (of one, or of the link's pairs
 * until the next commit: {@link PairBatches}).
 *
 * <p>Unmatched entries are flushed as [Jabbarifar 2013] does, by two rotating tables: a flow lives in the generation it
 * was created in and the next one, generations being wall-clock periods of {@code rotation} — never the events' own
 * timestamps, which are on unsynchronized clocks. The tables are the segments of a window store, one per generation
 * ({@link WriteBackStoreBuilder#periods}): an event looks its segment key up in the current and the previous
 * generation, and a generation two behind is deleted whole by the store, without reading its entries or writing a
 * tombstone for each (a scan of the whole store at every rotation had stalled the stream thread for hundreds of
 * milliseconds at 50,000 events/s, docs/PERFORMANCE.md). A generation also ends early when more than {@code maxPending}
 * entries would be held, so the two live generations never hold more. An exact copy of a flow's recorded send or
 * receive (same node, direction, timestamp and segment) is a dead letter; a retransmission (a later timestamp) is only
 * counted.
 */
public final class SegmentMatcher extends ContextualProcessor<String, TraceEvent, LinkId, MatchedPairs> {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentMatcher.class);

    private final String storeName;
    private final long rotationMs;
    private final long maxPending;
    private final PipelineStats stats;
    private final String batchStore;
    private WindowStore<String, SegmentFlows> store;
    private PairBatches batches;
    /** Generations ended early, ahead of the wall clock's. */
    private long endedEarly;
    /** The current generation: never goes back, even when the wall clock does. */
    private long current = Long.MIN_VALUE;
    /** The current generation and the previous one: a key neither holds costs no store read. */
    private Generation now = new Generation();
    private Generation before = new Generation();

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
     * The matcher's persistent store of unmatched and recently matched flows, one segment per generation, behind a
     * write-back buffer: a send and its receive within one commit interval cost one RocksDB write and one
     * changelog record instead of two, and neither is serialized before the commit.
     */
    public static StoreBuilder<WindowStore<String, SegmentFlows>> store(String name, Duration rotation) {
        return WriteBackStoreBuilder.periods(name, rotation, Serdes.String(), SegmentFlows.serde());
    }

    @Override
    public void init(ProcessorContext<LinkId, MatchedPairs> context) {
        super.init(context);
        store = context.getStateStore(storeName);
        if (batchStore != null) {
            batches = new PairBatches(context);
            context.<BeforeCommit>getStateStore(batchStore).listen(batches);
        }
        restoreCounts();
        context.schedule(Duration.ofMillis(rotationMs), PunctuationType.WALL_CLOCK_TIME, now -> rotate());
    }

    /**
     * The rotation on the wall clock, also when no event comes: moves to the current generation and writes its time
     * to the store (a tombstone of the empty key, which no segment key is), so that the store deletes the expired
     * segments now rather than at its next write.
     */
    private void rotate() {
        long was = current;
        advance();
        if (current != was) {
            store.put("", null, stamp(current));
        }
    }

    /** After a restart: the generation the store had reached and what its two live generations hold. */
    private void restoreCounts() {
        Map<Long, Generation> held = new HashMap<>();
        long latest = Long.MIN_VALUE;
        try (KeyValueIterator<Windowed<String>, SegmentFlows> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Windowed<String>, SegmentFlows> kv = it.next();
                long g = kv.key.window().start() / rotationMs;
                Generation generation = held.computeIfAbsent(g, x -> new Generation());
                generation.add(KeyHashes.hash(kv.key.key()));
                generation.unmatched += kv.value.flows.stream().filter(f -> !f.matched()).count();
                latest = Math.max(latest, g);
            }
        }
        endedEarly = held.isEmpty() ? 0 : Math.max(0, latest - wallClockGeneration());
        current = wallClockGeneration() + endedEarly;
        now = held.getOrDefault(current, new Generation());
        before = held.getOrDefault(current - 1, new Generation());
        stats.pendingSegments.addAndGet(now.entries + before.entries);
    }

    @Override
    public void process(Record<String, TraceEvent> record) {
        TraceEvent e = record.value();
        stats.events.incrementAndGet();
        advance();
        String key = record.key();
        long hash = KeyHashes.hash(key);
        SegmentFlows earlier = before.keys.contains(hash) ? store.fetch(key, stamp(current - 1)) : null;
        SegmentFlows latest = now.keys.contains(hash) ? store.fetch(key, stamp(current)) : null;
        // the earlier generation first: its flows were created first
        SegmentFlows held = earlier;
        Generation generation = before;
        boolean isSend = e.getDirection() == Direction.SEND;
        byte[] saddr = PacketFlow.bytes(e.getSaddr());
        byte[] daddr = PacketFlow.bytes(e.getDaddr());
        int sport = PacketFlow.port(e.getSport());
        int dport = PacketFlow.port(e.getDport());
        PacketFlow flow = earlier == null ? null
                : PacketFlow.find(earlier.flows, isSend, e.getNode(), saddr, daddr, sport, dport);
        if (flow == null) {
            held = latest;
            generation = now;
            flow = latest == null ? null
                    : PacketFlow.find(latest.flows, isSend, e.getNode(), saddr, daddr, sport, dport);
        }
        Sighting seen = new Sighting(e.getNode(), e.getTsNs());
        if (flow == null) {
            add(key, hash, latest, PacketFlow.first(isSend, seen, saddr, daddr, sport, dport));
            return;
        }
        switch (flow.offer(isSend, seen)) {
            case DUPLICATE -> throw new InvalidTraceEventException("duplicate event: node " + e.getNode()
                    + " already recorded this " + e.getDirection() + " at " + e.getTsNs() + " (segment " + key + ")");
            case COPY -> stats.duplicates.incrementAndGet();
            case SAME_NODE -> throw new InvalidTraceEventException("node " + e.getNode() + " sends to itself (segment "
                    + key + ")");
            case PAIRED -> {
                generation.unmatched--;
                // the store holds values by reference: a changed one is put back
                store.put(key, held, stamp(generation == now ? current : current - 1));
                forward(record, flow);
            }
        }
    }

    /** A new flow, in the current generation's entry of this key ({@code latest}: that entry so far, or null). */
    private void add(String key, long hash, SegmentFlows latest, PacketFlow flow) {
        List<PacketFlow> flows;
        if (latest == null) {
            makeRoom();
            flows = new ArrayList<>(1);
            now.add(hash);
            stats.pendingSegments.incrementAndGet();
        } else {
            // a new list: a dead letter thrown before a put must leave the stored flows as they were
            flows = new ArrayList<>(latest.flows);
        }
        flows.add(flow);
        store.put(key, new SegmentFlows(flows), stamp(current));
        now.unmatched++;
    }

    private void forward(Record<String, TraceEvent> record, PacketFlow flow) {
        String s = flow.send().node();
        String r = flow.recv().node();
        LinkId link = s.compareTo(r) < 0 ? new LinkId(s, r) : new LinkId(r, s);
        MatchedPair pair = new MatchedPair(s, flow.send().tsNs(), r, flow.recv().tsNs());
        stats.pairs.incrementAndGet();
        if (batches != null) {
            batches.add(record, link, pair);
        } else {
            context().forward(record.withKey(link).withValue(new MatchedPairs(List.of(pair))));
        }
    }

    /** Before a new entry is stored: ends generations early until it fits under {@code maxPending}. */
    private void makeRoom() {
        while (now.entries + before.entries >= maxPending) {
            LOG.info("matcher holds {} segment keys (max {}): ending the generation early",
                    now.entries + before.entries, maxPending);
            endedEarly = current + 1 - wallClockGeneration();
            advance();
        }
    }

    private long wallClockGeneration() {
        return context().currentSystemTimeMs() / rotationMs;
    }

    /**
     * A generation's time in the store: its last millisecond on the wall clock (early ends shift it ahead). A window
     * store reads only times after its latest one less its retention and deletes a segment once all of it is older
     * than that; with the last millisecond and a retention of two generations less 1 ms, the store reads the current
     * and the previous generation and deletes the one before at the first write of the current one.
     */
    private long stamp(long generation) {
        return generation * rotationMs + rotationMs - 1;
    }

    /**
     * The rotation: moves to the wall clock's generation (plus the early ends); the generation that was the
     * previous one, and the current one too when two have passed, expire — their unmatched flows are counted here,
     * their entries deleted with their segments by the store.
     */
    private void advance() {
        long g = Math.max(current, wallClockGeneration() + endedEarly);
        if (g == current) {
            return;
        }
        boolean both = g > current + 1;
        stats.expiredUnmatched.addAndGet(before.unmatched + (both ? now.unmatched : 0));
        stats.pendingSegments.addAndGet(-(before.entries + (both ? now.entries : 0)));
        before = both ? new Generation() : now;
        now = new Generation();
        current = g;
    }
}
