package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.environment.FileTrees;
import io.tracesync.environment.LocalKafka;
import io.tracesync.faults.Fault;
import io.tracesync.faults.FaultRun;
import io.tracesync.sim.SimulatedTraces;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code tracesync fault-run}, short: three instances of the packaged image (one standby) on a broker of the test's
 * own (with a KRaft controller of its own, which goes on while the broker is down), each fault once — an instance
 * killed, the network task's instance killed, two killed at once, a state wiped, an instance paused past its session
 * timeout, the broker killed and restarted — under traffic with malformed records; from committed output, the last
 * factors are the offline answer, every malformed record is a dead letter once, no factor version is lost or
 * repeated and every factor holds the true clocks. The shared registry.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class FaultRunTest {

    /** Generous: the recoveries take seconds here, a machine three times slower must pass too. */
    private static final Duration TIMEOUT = Duration.ofSeconds(150);

    /** The instances' logs and state stay here after a failed run (CI keeps a failed clone's target). */
    private static final Path WORK = Path.of("target", "fault-run").toAbsolutePath();

    @Test
    void everyFaultOnceAndTheCommittedOutputIsExactlyRight() throws Exception {
        run("it-fault-run-", Map.of());
    }

    /**
     * The same under Kafka Streams' own rebalance protocol ({@code group.protocol=streams}: a streams group whose
     * standbys and session timeout the application sets on the broker, the traces in one multiplexed topic).
     */
    @Test
    void underTheStreamsProtocolTooEveryFaultOnceAndTheCommittedOutputIsExactlyRight() throws Exception {
        run("it-fault-run-streams-", Map.of("group.protocol", "streams"));
    }

    private static void run(String prefix, Map<String, String> overrides) throws Exception {
        FaultRun.Plan plan = new FaultRun.Plan(Fault.values().length, 20261127, List.of(Fault.values()), 3,
                Duration.ofSeconds(2), Duration.ofSeconds(2), TIMEOUT);
        SimulatedTraces cluster = SimulatedTraces.run(6, 60_000_000_000L, 27);
        Path work = WORK.resolve(prefix.substring(0, prefix.length() - 1));
        FileTrees.delete(work);
        try (LocalKafka broker = LocalKafka.startWithSeparateController(work.resolve("broker"))) {
            String id = prefix + UUID.randomUUID();
            Map<String, String> config = FaultRun.settings(id, broker.bootstrapServers(),
                    SharedKafkaEnvironment.registryUrl(), plan, overrides);
            PrintWriter out = new PrintWriter(System.out, true);
            FaultRun run = new FaultRun(config, List.of(PackagedJar.java(), "-XX:+UseSerialGC", "-Xmx256m",
                    "-XX:TieredStopAtLevel=1", "-cp", PackagedJar.IMAGE.jar().toString(),
                    "io.tracesync.app.ApplicationCommand"), work.resolve("instances"), broker, out);
            FaultRun.Report r = run.run(cluster, 300, plan);
            assertTrue(r.passed(), () -> String.join("\n", r.problems()));
            assertEquals(EnumSet.allOf(Fault.class), EnumSet.copyOf(r.outcomes().stream()
                    .map(FaultRun.Outcome::fault).toList()), "each fault once");
            assertEquals(r.malformed(), r.deadLetters(), "dead letters");
            assertTrue(r.factorRecords() > 10 * cluster.nodes.size(), "factor records: " + r.factorRecords());
            for (FaultRun.Outcome o : r.outcomes()) {
                assertTrue(o.factorAfterMs() < 60_000, o + ": factors stopped for a minute; see the instance logs in "
                        + work);
            }
        }
    }
}
