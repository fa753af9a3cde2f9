package io.tracesync.bench;

import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TracesyncApp;
import java.time.Duration;

/**
 * The application's end-to-end throughput on events already in its input topic: from the first event it reads to
 * the moment every event has been checked, every true pair matched and every link summary applied to the network
 * (with exactly_once_v2, that includes every commit on the way).
 */
final class ThroughputRun {

    record Result(long events, double seconds, double startupSeconds) {
        double eventsPerSecond() {
            return events / seconds;
        }
    }

    private ThroughputRun() {
    }

    static Result run(Settings settings, long events, long pairs, Duration timeout) throws InterruptedException {
        long began = System.nanoTime();
        long deadline = began + timeout.toNanos();
        try (TracesyncApp app = TracesyncApp.start(settings)) {
            PipelineStats s = app.stats();
            long first = 0;
            while (true) {
                long now = System.nanoTime();
                if (first == 0 && s.events.get() > 0) {
                    first = now;
                }
                if (s.events.get() >= events && s.linkPairs.get() >= pairs
                        && s.networkUpdates.get() == s.linkSummaries.get()) {
                    return new Result(events, (now - first) / 1e9, (first - began) / 1e9);
                }
                if (now > deadline) {
                    throw new IllegalStateException(String.format("not done after %s: %d of %d events, %d of %d "
                            + "pairs, %d of %d link summaries applied", timeout, s.events.get(), events,
                            s.linkPairs.get(), pairs, s.networkUpdates.get(), s.linkSummaries.get()));
                }
                Thread.sleep(20);
            }
        }
    }
}
