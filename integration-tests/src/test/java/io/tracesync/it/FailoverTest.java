package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.TraceEvent;
import io.tracesync.bench.FailoverRun;
import io.tracesync.core.network.OfflineSync;
import io.tracesync.streams.Settings;
import io.tracesync.sim.SimulatedTraces;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench-failover} at a size CI affords: two instances of the packaged image (static membership, one standby),
 * the one running the network task killed with SIGKILL under live traffic; the survivor commits factors again
 * within seconds, and once every event is in, the factors are the offline answer.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class FailoverTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void theSurvivorTakesTheNetworkTaskOverAndEndsAtTheOfflineAnswer() throws Exception {
        String id = "it-failover-" + UUID.randomUUID();
        Map<String, String> config = new HashMap<>(SharedKafkaEnvironment.isolated(id));
        config.putAll(Map.of("topics.partitions", "3", "factors.min.change", "0", "links.min.change", "0",
                "num.standby.replicas", "1", "session.timeout.ms", "2000", "heartbeat.interval.ms", "600",
                "producer.transaction.timeout.ms", "2000"));
        Settings settings = Settings.of(config);
        SimulatedTraces cluster = SimulatedTraces.run(12, 60_000_000_000L, 61);
        List<TraceEvent> load = cluster.events.subList(0, cluster.events.size() * 2 / 3);
        List<TraceEvent> live = cluster.events.subList(load.size(), cluster.events.size());
        FailoverRun run = new FailoverRun(config, List.of(PackagedJar.java(), "-XX:+UseSerialGC", "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", PackagedJar.IMAGE.jar().toString(),
                "io.tracesync.app.ApplicationCommand"), dir);
        FailoverRun.Result r = run.run(load, live, live.size() / 10.0, WAIT, () -> FactorAnswers.await(settings,
                OfflineSync.factors(cluster.pairs, settings.linkOptions(), settings.networkOptions()), WAIT));
        System.out.printf("failover: %s%n", r);
        assertTrue(r.firstFactorMs() < 20_000, "factors flowed again only after " + r.firstFactorMs() + " ms; see "
                + run.log("a") + " and " + run.log("b"));
        assertTrue(r.rebalanceMs() >= 0 && r.runningMs() >= r.rebalanceMs(), "the survivor's log shows the "
                + "takeover: " + r);
    }
}
