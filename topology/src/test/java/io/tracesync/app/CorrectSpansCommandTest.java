package io.tracesync.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The options of {@code correct-spans}; the rewriting is tested on its topology and its core. */
class CorrectSpansCommandTest {

    @Test
    void itNeedsAnInputAndAnOutputTopicAndAKnownEncoding() {
        CliRun none = CliRun.of("correct-spans");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("Missing required options: '--input=TOPIC', '--output=TOPIC'"), none.err());
        CliRun encoding = CliRun.of("correct-spans", "--input", "a", "--output", "b", "--format", "thrift");
        assertEquals(2, encoding.exit());
        assertTrue(encoding.err().contains("unknown OTLP encoding thrift"), encoding.err());
    }

    @Test
    void helpNamesTheAttributesItAdds() {
        CliRun help = CliRun.of("correct-spans", "--help");
        assertEquals(0, help.exit());
        String text = help.out().replaceAll("\\s+", ""); // picocli wraps after dots too
        for (String s : List.of("tracesync.status", "tracesync.reference", "tracesync.local_start_ns",
                "tracesync.local_end_ns", "tracesync.bound_ns", "--application-id", "--host-attributes")) {
            assertTrue(text.contains(s), s + " in\n" + help.out());
        }
        assertTrue(CliRun.of("--help").out().contains("correct-spans"));
    }
}
