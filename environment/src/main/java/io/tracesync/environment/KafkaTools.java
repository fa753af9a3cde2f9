package io.tracesync.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Kafka's own command-line tools (org.apache.kafka.tools.*), run from the jars the environment recorded. */
public final class KafkaTools {

    private KafkaTools() {
    }

    /**
     * Runs {@code org.apache.kafka.tools.<tool>} with {@code args} in {@code workDir} on this JVM's Java and
     * returns what it printed; fails with the output's tail unless it exits with 0 within {@code timeout}.
     */
    public static String run(String tool, List<String> args, Path workDir, Duration timeout) throws IOException {
        Path log = workDir.resolve(tool + ".out");
        Files.deleteIfExists(log);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", EnvironmentArtifacts.load().kafkaClasspath(),
                "-Dlog4j2.level=WARN", "org.apache.kafka.tools." + tool));
        command.addAll(args);
        ChildProcess.run(tool, command, workDir, log, timeout);
        return Files.readString(log);
    }
}
