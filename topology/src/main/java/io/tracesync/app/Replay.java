package io.tracesync.app;

import io.tracesync.avro.SyncFactor;
import io.tracesync.console.ProgressBar;
import io.tracesync.console.ProgressLine;
import io.tracesync.console.StartupCheck;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.ApplicationReset;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.metrics.PipelineStats;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * The application over the trace topics from their beginning: under a new application id, or under the configured
 * one after resetting it ({@link ApplicationReset}); a bar driven by the consumer group's lag on the trace topics,
 * then the live line; with {@code untilCaughtUp} it stops once nothing is left and the factors have settled.
 */
public final class Replay {

    /** How long the pipeline must stay still, beyond two factor emission intervals, to count as settled. */
    private static final long SETTLE_NS = 3_000_000_000L;

    private final Settings base;
    private final boolean reset;
    private final String applicationId;
    private final boolean untilCaughtUp;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param reset replay under the configured application id, reset first
     * @param applicationId the new application id (null: {@code <application.id>-replay-<UTC time>})
     */
    public Replay(Settings base, boolean reset, String applicationId, boolean untilCaughtUp, PrintWriter out,
            PrintWriter err) {
        this.base = base;
        this.reset = reset;
        this.applicationId = applicationId;
        this.untilCaughtUp = untilCaughtUp;
        this.out = out;
        this.err = err;
    }

    /** Runs the replay: 0 when stopped or settled, 1 when it failed, 2 when the new id is not new (reported). */
    public int run() throws Exception {
        StartupCheck.run(base, err);
        String id = reset ? base.get("application.id")
                : applicationId != null ? applicationId
                : base.get("application.id") + "-replay-" + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'")
                        .withZone(ZoneOffset.UTC).format(Instant.now());
        Settings settings = base.with("application.id", id).with("auto.offset.reset", "earliest");
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            if (reset) {
                ApplicationReset.Result r = ApplicationReset.reset(admin, settings);
                err.printf(Locale.ROOT, "reset application.id %s: %d trace topics (%d partitions) to their earliest "
                        + "offsets; deleted %s; %d records of the factor history %s deleted%n", id,
                        r.inputs().size(), r.partitions(),
                        r.deletedTopics().isEmpty() ? "no internal topics" : r.deletedTopics(), r.historyRecords(),
                        new Topics(settings).factorHistory);
            } else if (!ApplicationGroup.of(admin, settings).committed().isEmpty()) {
                err.println("application.id " + id + " has committed offsets, so it is not new: name another, or "
                        + "reprocess it with --reset -D application.id=" + id);
                return 2;
            } else {
                err.println("replaying under application.id " + id);
            }
            err.flush();
            return replay(admin, settings);
        } catch (IllegalStateException e) {
            err.println("replay failed: " + e.getMessage());
            return 1;
        }
    }

    private int replay(Admin admin, Settings settings) throws Exception {
        InputLag lag = new InputLag(admin, settings);
        List<String> inputs = lag.topics();
        long total = lag.records();
        long start = System.nanoTime();
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            interrupted.countDown();
            try {
                closed.await(40, TimeUnit.SECONDS); // until the application has closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tracesync-replay-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (TracesyncApp app = TracesyncApp.startClean(settings)) {
            PipelineStats stats = app.stats();
            ProgressLine line = new ProgressLine(err);
            Settling settling = new Settling(stats, SETTLE_NS
                    + 2 * settings.duration(TracesyncConfig.FACTORS_EMIT_INTERVAL_CONFIG).toNanos());
            boolean caughtUp = false;
            boolean console = System.console() != null;
            try (ProgressBar.Meter bar = ProgressBar.meter(total, err, "replaying")) {
                while (!interrupted.await(500, TimeUnit.MILLISECONDS)) {
                    KafkaStreams.State state = app.streams().state();
                    if (!state.isRunningOrRebalancing() && state != KafkaStreams.State.CREATED) {
                        throw new IllegalStateException("the application stopped (" + state + "): "
                                + stats.threadFailures());
                    }
                    long behind = lag.records();
                    if (!caughtUp) {
                        bar.update(total - behind);
                    }
                    if (caughtUp || !console) {
                        line.show(stats); // on a terminal after the bar, in a log every ten seconds
                    }
                    if (behind == 0 && !caughtUp) {
                        caughtUp = true;
                        bar.close(); // the bar's line cleared for what follows
                        err.printf(Locale.ROOT, "caught up with %,d records of %d trace topics after %.1f s%s%n",
                                total, inputs.size(), (System.nanoTime() - start) / 1e9,
                                untilCaughtUp ? "; waiting for the factors to settle" : "; running on");
                        err.flush();
                    }
                    if (settling.still(behind == 0 && state == KafkaStreams.State.RUNNING) && untilCaughtUp) {
                        break;
                    }
                }
            }
            line.finish(stats);
            out.printf(Locale.ROOT, "replayed %,d records of %d trace topics under "
                    + "application.id %s in %.1f s: factors of %s nodes (%,d factor records)%n", total,
                    inputs.size(), settings.get("application.id"), (System.nanoTime() - start) / 1e9,
                    nodesWithFactors(app), stats.factorRecords.get());
            out.flush();
        } finally {
            closed.countDown();
            if (interrupted.getCount() > 0) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        }
        return 0;
    }

    /**
     * Nodes with a factor: the entries of the network step's store of the last record emitted per node; "?" while
     * the store cannot be queried (interrupted during a rebalance).
     */
    private static String nodesWithFactors(TracesyncApp app) {
        long n = 0;
        try (KeyValueIterator<String, SyncFactor> all = app.streams().store(StoreQueryParameters.fromNameAndType(
                TracesyncTopology.NETWORK_FACTOR_STORE, QueryableStoreTypes.<String, SyncFactor>keyValueStore()))
                .all()) {
            while (all.hasNext()) {
                all.next();
                n++;
            }
        } catch (InvalidStateStoreException e) {
            return "?";
        }
        return String.valueOf(n);
    }

    /** Whether the pipeline's counters have stood still, while a condition held, for a while. */
    private static final class Settling {
        private final PipelineStats stats;
        private final long forNs;
        private List<Long> last = List.of();
        private long since;

        Settling(PipelineStats stats, long forNs) {
            this.stats = stats;
            this.forNs = forNs;
        }

        boolean still(boolean condition) {
            List<Long> now = List.of(stats.events.get(), stats.pairs.get(), stats.linkSummaries.get(),
                    stats.networkUpdates.get(), stats.factorRecords.get(), stats.treeRecords.get());
            // summaries the network task holds for a paced emission are not settled yet
            if (!condition || !now.equals(last) || stats.networkPending.get() > 0) {
                last = now;
                since = System.nanoTime();
                return false;
            }
            return System.nanoTime() - since >= forNs;
        }
    }
}
