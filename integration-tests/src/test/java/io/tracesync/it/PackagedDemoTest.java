package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * README command 1, small: {@code tracesync demo} from the packaged jar, on the shared broker and registry, ends
 * with every node's streamed factor inside its guaranteed bound of the truth, equal to the offline answer, and
 * the HTML report.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class PackagedDemoTest {

    @TempDir
    Path work;

    @Test
    void theDemoEndsWithEveryNodeBoundedAndEqualToTheOfflineAnswer() throws Exception {
        String out = PackagedJar.TOOLS.run(300, "demo", "--nodes", "6", "--duration", "20s", "--seed", "3",
                "--work", work.toString(),
                "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl());
        Matcher m = Pattern.compile("(\\d+) of (\\d+) nodes: true error inside the guaranteed bound; (\\d+) equal")
                .matcher(out);
        assertTrue(m.find(), out);
        assertTrue(m.group(1).equals("6") && m.group(2).equals("6") && m.group(3).equals("6"), out);
        assertTrue(Files.size(work.resolve("report/report.html")) > 1000, "no report");
    }

    /**
     * README command 1 as a user runs it: its own broker and registry, the default (relative) work directory; run
     * again in the same directory, it replaces the previous run.
     */
    @Test
    void theDemoStartsAndStopsItsOwnServicesAndRunsAgain() throws Exception {
        for (String seed : new String[] {"5", "6"}) {
            String out = PackagedJar.TOOLS.runIn(work, 300, "demo", "--nodes", "4", "--duration", "10s", "--seed",
                    seed);
            Matcher m = Pattern.compile("(\\d+) of (\\d+) nodes: true error inside the guaranteed bound; (\\d+) equal")
                    .matcher(out);
            assertTrue(m.find(), out);
            assertTrue(m.group(1).equals("4") && m.group(2).equals("4") && m.group(3).equals("4"), out);
            assertTrue(Files.size(work.resolve("demo/report/report.html")) > 1000, "no report");
            String kafkaLog = Files.readString(work.resolve("demo/services/kafka/kafka.log"));
            assertTrue(kafkaLog.contains("started"), "the demo's broker never started");
        }
    }
}
