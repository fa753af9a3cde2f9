package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command fills a small history store, converts within it — every time between two versions, as the histories
 * are whole — and refuses empty workloads.
 */
class BenchHistoryCommandTest {

    @Test
    void theCommandFillsTheStoreAndTimesItsConversions() {
        StringWriter out = new StringWriter();
        CommandLine cmd = new CommandLine(new BenchHistoryCommand());
        cmd.setOut(new PrintWriter(out));
        assertEquals(0, cmd.execute("--nodes", "20", "--hours", "0.5", "--queries", "500"));
        String text = out.toString();
        assertTrue(text.startsWith("20 nodes x 0.5 h at one version per 10 s: 3,600 versions, filled in "), text);
        assertTrue(text.contains("500 conversions: p50 ") && text.contains("100.00 % between two versions"), text);
        assertEquals(2, cmd.execute("--nodes", "0"));
    }
}
