package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The benchmark command runs end to end on a small workload and its naive baseline agrees on every reference. */
class BenchNetworkCommandTest {

    @Test
    void smallRunPrintsTheTableAndAgreesWithTheNaiveBaseline() {
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new BenchNetworkCommand());
        cmd.setOut(new PrintWriter(out));
        int exit = cmd.execute("--nodes", "300,600", "--ops", "20000", "--seed", "7",
                "--naive-nodes", "300", "--naive-samples", "3", "--increase", "1", "--remove", "1", "--no-warmup");
        assertEquals(0, exit);
        String text = out.toString();
        assertTrue(text.contains("cycleKept"), text);
        assertTrue(text.lines().anyMatch(l -> l.trim().startsWith("600 ")), text);
        assertTrue(text.contains("disagreements with the incremental one: 0"), text);
    }

    @Test
    void helpDescribesTheWorkload() {
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new BenchNetworkCommand());
        cmd.setOut(new PrintWriter(out));
        assertEquals(0, cmd.execute("--help"));
        assertTrue(out.toString().contains("--drain-every"));
    }
}
