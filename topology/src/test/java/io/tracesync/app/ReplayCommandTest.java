package io.tracesync.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line of {@code replay}; replaying itself is tested on a real broker (integration tests). */
class ReplayCommandTest {

    @Test
    void helpNamesEveryOptionAndWhatTheResetDoes() {
        CliRun help = CliRun.of("replay", "--help");
        assertEquals(0, help.exit());
        for (String s : List.of("--config", "--bootstrap-servers", "--schema-registry-url", "--application-id",
                "--reset", "-D", "--until-caught-up", "-replay-", "internal topics", "local state")) {
            assertTrue(help.out().replaceAll("\\s+", " ").contains(s), s + " in\n" + help.out());
        }
        assertTrue(CliRun.of("--help").out().contains("replay"));
    }

    @Test
    void aNewApplicationIdAndTheResetExcludeEachOther() {
        CliRun r = CliRun.of("replay", "--reset", "--application-id", "x");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("mutually exclusive"), r.err());
    }
}
