package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.cli.TracesyncCommand;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps beyond the clock model the links see ({@link ObservedSteps}): none on clocks that follow it, some where
 * chrony disciplines the clocks across a WAN (its frequency updates step the relative frequency by tens of ppm
 * within a minute, docs/ACCURACY.md).
 */
class ObservedStepsTest {

    @TempDir
    Path dir;

    @Test
    void linksSeeStepsWhereChronyStepsTheFrequencyAndNoneOnSteadyClocks() throws IOException {
        ObservedSteps steady = replay("steady");
        ObservedSteps wan = replay("wan", "--ntp-poll", "64s", "--ntp-daemon", "chrony", "--ntp-noise", "1ms");
        System.out.println("steady: " + steady.finding() + "\nchrony WAN: " + wan.finding());
        assertTrue(steady.stepsPpb().length > steady.links() / 2, "most links measured: " + steady.finding());
        assertEquals(0, steady.stepped());
        assertTrue(wan.stepped() > 0, wan.finding());
    }

    /** 6 nodes for 20 minutes under the default clock model, replayed: the steps their links saw. */
    private ObservedSteps replay(String name, String... daemon) throws IOException {
        Path run = dir.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("simulate", "--out", run.toString(), "--nodes", "6",
                "--duration", "20m", "--seed", "3"));
        args.addAll(List.of(daemon));
        assertEquals(0, TracesyncCommand.commandLine().execute(args.toArray(String[]::new)));
        Path pairs = run.resolve("truth-pairs.csv");
        LinkOptions model = LinkOptions.withModel(LinkOptions.DEFAULT_HORIZON.toNanos(), 0, 0, null,
                LinkOptions.DEFAULT_SHORTEST_WINDOW.toNanos());
        try (BufferedReader in = Files.newBufferedReader(pairs)) {
            return ObservedSteps.of(Replay.run(in, pairs.toString(), model, NetworkOptions.DEFAULT,
                    1_000_000_000L).ends());
        }
    }
}
