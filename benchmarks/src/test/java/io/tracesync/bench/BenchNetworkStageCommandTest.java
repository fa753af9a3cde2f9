package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command runs end to end on a tiny network and refuses a network its links cannot form. */
class BenchNetworkStageCommandTest {

    @Test
    void theCommandPrintsARowPerReportAndTheTotals() {
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new BenchNetworkStageCommand());
        cmd.setOut(new PrintWriter(out));
        assertEquals(0, cmd.execute("--nodes", "100", "--links-per-node", "3", "--templates", "10", "--duration",
                "20s", "--report", "5s"));
        String text = out.toString();
        assertEquals(4, text.lines().filter(l -> l.matches(" +(5|10|15|20)\\.0 .*")).count(), text);
        assertTrue(text.contains("every node published at"), text);
        assertTrue(text.contains("links left out as contradicting the others at the end: 0"), text);
        assertEquals(2, cmd.execute("--nodes", "10", "--links-per-node", "5"));
    }
}
