package io.tracesync.app;

import io.tracesync.avro.SyncFactor;
import io.tracesync.streams.ApplicationReset;
import io.tracesync.streams.InputLag;
import io.tracesync.streams.PipelineStats;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code tracesync replay}: the application over the archived trace topics from their beginning, under a new
 * application id or the configured one reset ({@link ApplicationReset}), with a bar driven by the group's lag.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reprocesses the trace topics from the beginning with the streaming application "
                + "(auto.offset.reset=earliest): by default under a new application id <application.id>-replay-"
                + "<UTC time>, printed; or under --application-id ID, which must have no committed offsets; or, with "
                + "--reset, under the configured application.id after resetting it: its consumer group must have no "
                + "member (a stopped instance is one until its session expires: waited out, up to session.timeout.ms "
                + "and 5 s); the committed offsets of the trace topics go to the earliest ones, the group's other "
                + "offsets and the application's internal topics (changelogs, repartition topics) are deleted, and "
                + "so is its local state. Output topics are the configured ones (-D factors.topic=... to keep a "
                + "replay's apart).",
                "The bar shows the records of the trace topics processed (the group's committed offsets against "
                + "the latest ones). Runs until interrupted, or with --until-caught-up until nothing is left to "
                + "process and the factors have settled.",
                "Configuration as for run: defaults, --config FILE, TRACESYNC_<KEY> variables, then flags."})
public final class ReplayCommand implements Callable<Integer> {

    /** How long the pipeline must stay still, beyond two factor emission intervals, to count as settled. */
    private static final long SETTLE_NS = 3_000_000_000L;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @ArgGroup(exclusive = true)
    Target target;

    @Option(names = "--until-caught-up",
            description = "Stop when every trace topic record is processed and the factors have settled; print the "
                    + "factors count.")
    boolean untilCaughtUp;

    /** A new application id, named or not, or the configured one reset. */
    static final class Target {
        @Option(names = "--application-id", paramLabel = "ID", description = "The new application id to replay "
                + "under (default: <application.id>-replay-<UTC time>).")
        String applicationId;

        @Option(names = "--reset", description = "Replay under the configured application.id, reset first.")
        boolean reset;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Settings base = options.load();
        boolean reset = target != null && target.reset;
        String id = reset ? base.get("application.id")
                : target != null ? target.applicationId
                : base.get("application.id") + "-replay-" + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'")
                        .withZone(ZoneOffset.UTC).format(Instant.now());
        Settings settings = base.with("application.id", id).with("auto.offset.reset", "earliest");
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            if (reset) {
                ApplicationReset.Result r = ApplicationReset.reset(admin, settings);
                err.printf(Locale.ROOT, "reset application.id %s: %d trace topics (%d partitions) to their earliest "
                        + "offsets; deleted %s%n", id, r.inputs().size(), r.partitions(),
                        r.deletedTopics().isEmpty() ? "no internal topics" : r.deletedTopics());
            } else if (hasOffsets(admin, id)) {
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
        PrintWriter err = spec.commandLine().getErr();
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
            spec.commandLine().getOut().printf(Locale.ROOT, "replayed %,d records of %d trace topics under "
                    + "application.id %s in %.1f s: factors of %s nodes (%,d factor records)%n", total,
                    inputs.size(), settings.get("application.id"), (System.nanoTime() - start) / 1e9,
                    nodesWithFactors(app), stats.factorRecords.get());
            spec.commandLine().getOut().flush();
        } finally {
            closed.countDown();
            if (interrupted.getCount() > 0) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        }
        return 0;
    }

    private static boolean hasOffsets(Admin admin, String group) throws ExecutionException, InterruptedException {
        try {
            return !admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().isEmpty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return false;
            }
            throw e;
        }
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
            if (!condition || !now.equals(last)) {
                last = now;
                since = System.nanoTime();
                return false;
            }
            return System.nanoTime() - since >= forNs;
        }
    }
}
