package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.errors.InvalidTraceEventException;
import io.tracesync.streams.metrics.PipelineStats;
import io.tracesync.streams.state.BeforeCommit;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SegmentMatcherTest {

    private static final ByteBuffer A = ByteBuffer.wrap(new byte[] {10, 0, 0, 1});
    private static final ByteBuffer B = ByteBuffer.wrap(new byte[] {10, 0, 0, 2});
    private static final ByteBuffer C = ByteBuffer.wrap(new byte[] {10, 0, 0, 3});

    private final PipelineStats stats = new PipelineStats();
    private final MockProcessorContext<LinkId, MatchedPairs> context = new MockProcessorContext<>();
    private SegmentMatcher matcher;
    private WindowStore<String, SegmentFlows> store;

    @BeforeEach
    void start() {
        context.setCurrentSystemTimeMs(0);
        start(1000);
    }

    private void start(long maxPending) {
        store = InMemoryGenerations.add(context, "m", Duration.ofSeconds(10));
        matcher = new SegmentMatcher("m", Duration.ofSeconds(10), maxPending, stats);
        matcher.init(context);
    }

    @Test
    void aSendAndItsReceiveMakeOnePairInEitherArrivalOrder() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        event("7:2:24", "b", 9_000, Direction.RECV, B, A);
        event("7:2:24", "a", 300, Direction.SEND, B, A);
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L), new MatchedPair("a", 300L, "b", 9_000L)), pairs());
        assertEquals(new LinkId("a", "b"), context.forwarded().get(0).record().key());
    }

    @Test
    void retransmissionsAndDuplicatesNeverPairTwice() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "a", 900, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        event("1:2:24", "b", 5_500, Direction.RECV, A, B);
        event("1:2:24", "a", 1_900, Direction.SEND, A, B);
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L)), pairs(), "first send x first receive only");
        assertEquals(3, stats.duplicates.get());
    }

    @Test
    void anExactDuplicateIsADeadLetterWhileItsOriginalStillCounts() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        InvalidTraceEventException e = assertThrows(InvalidTraceEventException.class,
                () -> event("1:2:24", "a", 100, Direction.SEND, A, B));
        assertTrue(e.getMessage().startsWith("duplicate event: node a already recorded this SEND at 100"),
                e.getMessage());
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        assertThrows(InvalidTraceEventException.class, () -> event("1:2:24", "b", 5_000, Direction.RECV, A, B));
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L)), pairs());
        assertEquals(0, stats.duplicates.get());
    }

    @Test
    void connectionsSharingASegmentKeyAreToldApartByAddress() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "c", 200, Direction.SEND, C, B);
        event("1:2:24", "b", 5_200, Direction.RECV, C, B);
        event("1:2:24", "b", 5_100, Direction.RECV, A, B);
        assertEquals(List.of(new MatchedPair("c", 200L, "b", 5_200L), new MatchedPair("a", 100L, "b", 5_100L)), pairs());
    }

    @Test
    void addressesAreComparedOnlyWhereBothSidesCarryThem() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, null, null);
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L)), pairs());
    }

    @Test
    void aNodeCannotSendToItself() {
        event("1:2:24", "a", 100, Direction.SEND, A, A);
        InvalidTraceEventException e = assertThrows(InvalidTraceEventException.class,
                () -> event("1:2:24", "a", 150, Direction.RECV, A, A));
        assertTrue(e.getMessage().contains("node a sends to itself"), e.getMessage());
    }

    @Test
    void unmatchedEntriesExpireAfterTwoRotationsOfWallClockTime() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        context.setCurrentSystemTimeMs(10_000);
        rotate();
        assertEquals(1, count(), "kept through the previous generation");
        assertEquals(1, stats.pendingSegments.get());
        context.setCurrentSystemTimeMs(20_000);
        rotate();
        assertEquals(1, stats.expiredUnmatched.get());
        assertEquals(0, stats.pendingSegments.get());
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        assertEquals(List.of(), pairs(), "a receive after its send expired pairs nothing");
        assertEquals(1, count(), "the expired generation deleted at the next write: only the receive is held");
        assertEquals(1, stats.pendingSegments.get());
    }

    @Test
    void aFlowCreatedInThePreviousGenerationStillMatchesAndIsUpdatedInPlace() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        context.setCurrentSystemTimeMs(10_000);
        event("2:2:24", "a", 200, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        event("1:2:24", "b", 5_500, Direction.RECV, A, B);
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L)), pairs());
        assertEquals(1, stats.duplicates.get(), "the retransmitted receive met the matched flow");
        assertEquals(2, count(), "one entry per key, each in the generation it was created in");
        context.setCurrentSystemTimeMs(20_000);
        rotate();
        assertEquals(0, stats.expiredUnmatched.get(), "the matched flow expires without counting");
        assertEquals(1, stats.pendingSegments.get());
        context.setCurrentSystemTimeMs(30_000);
        rotate();
        assertEquals(1, stats.expiredUnmatched.get(), "the second send never met its receive");
        assertEquals(0, stats.pendingSegments.get());
    }

    @Test
    void aRestartedMatcherPairsAndCountsWhatItsStoreHolds() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        event("2:2:24", "a", 200, Direction.SEND, A, B);
        context.setCurrentSystemTimeMs(10_000);
        event("3:2:24", "a", 300, Direction.SEND, A, B);
        PipelineStats restarted = new PipelineStats();
        SegmentMatcher again = new SegmentMatcher("m", Duration.ofSeconds(10), 1000, restarted);
        again.init(context);
        assertEquals(3, restarted.pendingSegments.get());
        matcher = again;
        event("3:2:24", "b", 5_300, Direction.RECV, A, B);
        event("2:2:24", "b", 5_200, Direction.RECV, A, B);
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L), new MatchedPair("a", 300L, "b", 5_300L),
                new MatchedPair("a", 200L, "b", 5_200L)), pairs(), "sends held before the restart still pair");
        context.setCurrentSystemTimeMs(20_000);
        context.scheduledPunctuators().get(1).getPunctuator().punctuate(20_000);
        assertEquals(0, restarted.expiredUnmatched.get(), "every flow of the expired generation was matched");
        assertEquals(1, restarted.pendingSegments.get());
    }

    @Test
    void matchedEntriesExpireWithoutCountingAsUnmatched() {
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        context.setCurrentSystemTimeMs(20_000);
        rotate();
        assertEquals(0, count());
        assertEquals(0, stats.expiredUnmatched.get());
    }

    @Test
    void tooManyPendingKeysEndTheGenerationEarly() {
        start(3);
        for (int i = 0; i < 10; i++) {
            event(i + ":0:24", "a", i, Direction.SEND, A, B);
            assertTrue(count() <= 3, "bounded: " + count());
        }
        assertTrue(stats.expiredUnmatched.get() >= 6, "older unmatched entries dropped: " + stats.expiredUnmatched);
    }

    @Test
    void batchedPairsWaitForTheCommitThenGoOutPerLinkInTheOrderMatched() {
        BeforeCommit hook = batching();
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B, 70);
        event("2:2:24", "c", 200, Direction.SEND, C, B);
        event("2:2:24", "b", 5_200, Direction.RECV, C, B, 90);
        event("3:2:24", "b", 9_000, Direction.RECV, B, A, 80);
        event("3:2:24", "a", 300, Direction.SEND, B, A, 85);
        assertEquals(List.of(), pairs(), "nothing before the commit");
        hook.flushCache();
        assertEquals(List.of(new LinkId("a", "b"), new LinkId("b", "c")),
                context.forwarded().stream().map(f -> f.record().key()).toList(), "one record per link");
        assertEquals(List.of(new MatchedPair("a", 100L, "b", 5_000L), new MatchedPair("a", 300L, "b", 9_000L)),
                context.forwarded().get(0).record().value().getPairs());
        assertEquals(85, context.forwarded().get(0).record().timestamp(), "the latest of its pairs' records");
        hook.flushCache();
        assertEquals(2, context.forwarded().size(), "each pair once");
    }

    @Test
    void aDiscardedBatchIsGoneAndABigOneGoesOutEarly() {
        BeforeCommit hook = batching();
        event("1:2:24", "a", 100, Direction.SEND, A, B);
        event("1:2:24", "b", 5_000, Direction.RECV, A, B);
        hook.clearCache();
        hook.flushCache();
        assertEquals(List.of(), pairs(), "discarded with its transaction");
        for (int i = 0; i < PairBatches.MAX_PAIRS; i++) {
            event(i + ":9:24", "a", i, Direction.SEND, A, B);
            event(i + ":9:24", "b", 10_000 + i, Direction.RECV, A, B);
        }
        assertEquals(PairBatches.MAX_PAIRS, pairs().size(), "forwarded without waiting for a commit");
    }

    private BeforeCommit batching() {
        start(1_000_000);
        BeforeCommit hook = (BeforeCommit) BeforeCommit.builder("batches").build();
        hook.init(context.getStateStoreContext(), hook);
        context.addStateStore(hook);
        matcher = new SegmentMatcher("m", Duration.ofSeconds(10), 1_000_000, stats, "batches");
        matcher.init(context);
        return hook;
    }

    private void rotate() {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(context.currentSystemTimeMs());
    }

    private long count() {
        long n = 0;
        try (KeyValueIterator<Windowed<String>, SegmentFlows> it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private List<MatchedPair> pairs() {
        return context.forwarded().stream().flatMap(f -> f.record().value().getPairs().stream()).toList();
    }

    private void event(String key, String node, long ts, Direction d, ByteBuffer saddr, ByteBuffer daddr) {
        event(key, node, ts, d, saddr, daddr, 0);
    }

    private void event(String key, String node, long ts, Direction d, ByteBuffer saddr, ByteBuffer daddr,
            long timestamp) {
        String[] k = key.split(":");
        TraceEvent e = TraceEvent.newBuilder().setNode(node).setTsNs(ts).setDirection(d)
                .setSaddr(saddr).setDaddr(daddr).setSport(saddr == null ? null : 40000).setDport(80)
                .setSeq(Long.parseLong(k[0])).setAckSeq(Long.parseLong(k[1])).setFlags(Integer.parseInt(k[2]))
                .build();
        matcher.process(new Record<>(key, e, timestamp));
    }
}
