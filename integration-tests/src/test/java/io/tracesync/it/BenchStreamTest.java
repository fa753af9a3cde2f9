package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench-stream} on the shared broker and registry, small: a warm-up run, the measured run beside
 * ConsumerPerformance, each stage alone on the records its hop carried (every event read by the check and the
 * match), and one paced latency run whose probes must all be seen in {@code sync.factors}.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class BenchStreamTest {

    @Test
    void printsEveryFigureOfAWarmedUpRun(@TempDir Path work) {
        Cli bench = Cli.run("bench-stream", "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(),
                "--schema-registry-url", SharedKafkaEnvironment.registryUrl(), "--work", work.toString(),
                "--nodes", "6", "--events", "4000", "--warm-up-events", "2000", "--rate", "2000", "--warm-up", "1s",
                "--latency-for", "3s", "--probe-every", "300ms", "--emit-intervals", "100ms",
                "--set", "commit.interval.ms=50");
        assertEquals(0, bench.exit(), bench.err());
        String out = bench.out();
        assertTrue(out.contains("warm-up run (the JIT compilers at work)") && out.contains("(2,000 events"), out);
        assertTrue(out.contains("input: 4,000 events"), out);
        Matcher ratio = Pattern.compile("ratio tracesync / raw consume +([0-9.]+)").matcher(out);
        assertTrue(ratio.find() && Double.parseDouble(ratio.group(1)) > 0, out);
        for (String stage : new String[] {"check +the input +4,000", "match +segments repartition +4,000",
            "links +pairs repartition +[1-9][0-9,]*", "network +network repartition +[1-9][0-9,]*"}) {
            // timed, or a few records all read in the stage's first poll
            assertTrue(Pattern.compile("(?m)^  " + stage + "( +[0-9,]+ +[0-9.,]+ +[0-9.,]+|  \\(all read at once: "
                    + "too few records to time\\))$").matcher(out).find(), stage + " alone, on what its hop carried: "
                    + out);
        }
        assertTrue(Pattern.compile("(?m)^  together .*\\(the whole run: [0-9.,]+\\)$").matcher(out).find(), out);
        Matcher probes = Pattern.compile("achieved [0-9,]+; (\\d+) probes: .*; (\\d+) probes never seen").matcher(out);
        assertTrue(probes.find(), out);
        assertTrue(Integer.parseInt(probes.group(1)) >= 5, out);
        assertEquals("0", probes.group(2), out);
    }
}
