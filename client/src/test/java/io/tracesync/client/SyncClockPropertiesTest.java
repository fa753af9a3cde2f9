package io.tracesync.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoricConversion.Basis;
import io.tracesync.core.history.NodeHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * {@link SyncClock#convert} answers as the core's {@link NodeHistory} of the same versions does, within the same
 * capacity, whatever the order in which the two topics deliver them.
 */
class SyncClockPropertiesTest {

    private static final String TOPIC = "sync.factors";
    private static final String HISTORY = "sync.factors.history";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition H0 = new TopicPartition(HISTORY, 0);
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    /**
     * Random versions of one node — numbers rising by 1 to 3 from 1 to 4, anchors 1 ms to 60 s apart or now and
     * then at or before the previous one, mostly valid for one linear relation, a few a step away from it or of
     * another reference — all in the history topic, some in the factors topic; a capacity of 2 to 30.
     */
    @Property(tries = 100)
    void answersAreThoseOfTheCoresHistoryOfTheSameVersions(@ForAll long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        int capacity = r.nextInt(2, 31);
        double slope = 1 + (r.nextDouble() - 0.5) * 1e-4;
        double offset = r.nextLong(-3_600 * SECOND, 3_600 * SECOND);
        NodeHistory all = new NodeHistory(Integer.MAX_VALUE);
        List<SyncFactor> history = new ArrayList<>();
        List<SyncFactor> latest = new ArrayList<>();
        long number = r.nextLong(0, 4);
        long anchor = T0;
        for (int i = r.nextInt(1, 40); i > 0; i--) {
            number += r.nextLong(1, 4);
            anchor = r.nextInt(8) == 0 ? anchor - r.nextLong(0, SECOND) : anchor + r.nextLong(1_000_000, 60 * SECOND);
            SyncFactor v = version(number, anchor, slope, offset, r);
            history.add(v);
            if (r.nextInt(3) == 0 || i == 1) {
                latest.add(v);
            }
            all.add(PublishedFactor.of(v).toVersion());
        }
        MockConsumer<String, SyncFactor> consumer = new MockConsumer<>("earliest");
        consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        consumer.updatePartitions(HISTORY, List.of(new PartitionInfo(HISTORY, 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, H0, 0L));
        consumer.updateEndOffsets(Map.of(P0, (long) latest.size(), H0, (long) history.size()));
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < Math.max(latest.size(), history.size()); i++) {
                if (i < latest.size()) {
                    consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, i, "n", latest.get(i)));
                }
                if (i < history.size()) {
                    consumer.addRecord(new ConsumerRecord<>(HISTORY, 0, i, "n", history.get(i)));
                }
            }
        });
        FactorHistories histories = new FactorHistories(capacity, 0, System::currentTimeMillis);
        try (SyncClock clock = SyncClock.start(consumer, TOPIC, HISTORY, histories, (n, p, c) -> { })) {
            assertTrue(clock.awaitCaughtUp(Duration.ofSeconds(10)));
            // the newest of the versions publication order keeps, at most the capacity: fewer where a version held
            // for a while (later superseded) took a place, as it would have in publication order too
            List<FactorVersion> held = clock.history("n");
            FactorVersion[] every = all.versions();
            assertTrue(held.size() <= capacity && held.size() <= every.length, held.toString());
            assertEquals(List.of(every).subList(every.length - held.size(), every.length), held);
            NodeHistory expected = all;
            expected.setCapacity(held.size());
            long first = expected.oldest().anchorNs();
            for (int i = 0; i < 40; i++) {
                long t = i < 5 ? expected.versions()[r.nextInt(expected.size())].anchorNs() - r.nextInt(2)
                        : r.nextLong(first - 100 * SECOND, anchor + 100 * SECOND);
                ReferenceTime c = clock.convert("n", t).orElseThrow();
                assertSameAnswer(expected.convert(t), c);
                Statistics.label("basis").collect(c.basis());
                Statistics.label("truncated").collect(c.truncated());
            }
        }
        Statistics.label("basis").coverage(c -> {
            for (Basis b : Basis.values()) {
                c.check(b).count(n -> n > 0);
            }
        });
        Statistics.label("truncated").coverage(c -> c.check(true).count(n -> n > 0));
    }

    private static void assertSameAnswer(HistoricConversion e, ReferenceTime c) {
        String what = e + " vs " + c;
        assertEquals(e.nearestNs(), c.referenceNs(), what);
        assertEquals(optional(e.lowerNs()), c.lowerNs(), what);
        assertEquals(optional(e.upperNs()), c.upperNs(), what);
        assertEquals(e.version().number(), c.version(), what);
        assertEquals(e.next() == null ? OptionalLong.empty() : OptionalLong.of(e.next().number()), c.next(), what);
        assertEquals(e.basis(), c.basis(), what);
        assertEquals(e.fromDataNs(), c.fromDataNs(), what);
        assertEquals(e.version().reference(), c.reference(), what);
        assertEquals(e.truncated(), c.truncated(), what);
    }

    /**
     * A version whose map is the relation t ↦ slope·t + offset missed by up to 50 µs, its bounds containing the
     * miss with a margin of up to 20 µs and growing, with the clock model or without; one in eight a step of 5 ms
     * that its bounds exclude, one in ten of another reference.
     */
    private static SyncFactor version(long number, long anchor, double slope, double offset, SplittableRandom r) {
        boolean step = r.nextInt(8) == 0;
        double miss = step ? 5e6 * (r.nextBoolean() ? 1 : -1) : r.nextLong(-50_000, 50_001);
        long margin = r.nextLong(0, 20_000_000);
        long up = step ? margin : (long) Math.max(0, -miss) * 1000 + margin;
        long down = step ? margin : (long) Math.max(0, miss) * 1000 + margin;
        String reference = r.nextInt(10) == 0 ? "other" : "ref";
        return SyncFactor.newBuilder().setNode("n").setComponent(reference).setReference(reference)
                .setMap(new ClockMap(slope, 0.0, offset + miss, 0.0))
                .setUpPs(up).setDownPs(down)
                .setBoundNs(null).setAnchorNs(anchor).setGrowthAbove(r.nextDouble() * 1e-6)
                .setGrowthBelow(r.nextDouble() * 1e-6).setCurvature(r.nextBoolean() ? 2e-17 : 0.0)
                .setValidFromMs(number).setVersion(number).build();
    }

    private static OptionalLong optional(Long ns) {
        return ns == null ? OptionalLong.empty() : OptionalLong.of(ns);
    }
}
