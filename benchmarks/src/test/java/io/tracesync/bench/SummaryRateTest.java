package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.Settings;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A few links over a few simulated minutes through the real link step: the counts are consistent, and with linear
 * clocks they fall as the links age. (Under the default clock model the answering windows stay short and young, so
 * the rate does not fall: docs/PERFORMANCE.md, Sizing.)
 */
class SummaryRateTest {

    private static final long MINUTE = 60_000_000_000L;

    private static Settings settings(String curvature) {
        return Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID(), "link.curvature", curvature));
    }

    @Test
    void underTheClockModelTheCountsAgreeWithLinkProcessors() {
        SummaryRate.Result r = new SummaryRate(new SummaryRate.Config(4, 20, 2 * MINUTE, false, 3),
                settings("20")).run();
        assertEquals(4, r.firstEmitted(), "every link's first batch forwards a summary");
        assertEquals(r.counted(), r.summaries(), "PipelineStats.linkSummaries");
        for (SummaryRate.Bucket b : r.buckets()) {
            assertTrue(b.summaries() <= b.batches(), "at most one summary a batch: " + b);
        }
    }

    @Test
    void everyLinkEmitsFirstThenLessAndTheCountsAgreeWithLinkProcessors() {
        SummaryRate run = new SummaryRate(new SummaryRate.Config(4, 20, 5 * MINUTE, false, 3), settings("0"));
        assertEquals(100_000_000, run.commitIntervalNs(), "Kafka Streams' commit interval under exactly_once_v2");
        SummaryRate.Result r = run.run();
        assertEquals(4, r.links());
        assertEquals(4, r.firstEmitted(), "every link's first batch forwards a summary");
        assertEquals(r.counted(), r.summaries(), "PipelineStats.linkSummaries");
        List<SummaryRate.Bucket> buckets = r.buckets();
        assertEquals(List.of(0L, 10_000_000_000L, MINUTE), buckets.stream().map(SummaryRate.Bucket::fromNs).toList());
        assertEquals(r.pairs(), buckets.stream().mapToLong(SummaryRate.Bucket::pairs).sum());
        assertEquals(r.summaries(), buckets.stream().mapToLong(SummaryRate.Bucket::summaries).sum());
        for (SummaryRate.Bucket b : buckets) {
            assertTrue(b.pairsPerLinkS() > 15 && b.pairsPerLinkS() < 25, b.toString());
            assertTrue(b.batches() <= b.pairs() && b.summaries() <= b.batches(), "at most one summary a batch: " + b);
        }
        double first = buckets.get(0).summariesPerLinkS();
        double last = buckets.get(buckets.size() - 1).summariesPerLinkS();
        assertTrue(last > 0 && last < first / 2, first + " then " + last);
    }
}
