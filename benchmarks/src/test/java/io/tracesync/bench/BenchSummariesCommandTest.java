package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command runs end to end on a tiny workload and refuses too few links. */
class BenchSummariesCommandTest {

    @Test
    void theCommandPrintsOneTablePerRate() {
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new BenchSummariesCommand());
        cmd.setOut(new PrintWriter(out));
        assertEquals(0, cmd.execute("--links", "3", "--rates", "5,50", "--duration", "2m", "--seed", "2"));
        String text = out.toString();
        assertEquals(2, text.lines().filter(l -> l.startsWith("age ")).count(), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("1m–2m ")), text);
        assertTrue(text.contains("3 of 3 links emitted at their first batch"), text);
        assertEquals(2, cmd.execute("--links", "2"));
    }
}
