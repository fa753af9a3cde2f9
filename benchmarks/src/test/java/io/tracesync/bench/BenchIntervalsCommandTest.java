package io.tracesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command times small networks, with and without an offset excursion, and refuses what it cannot run. */
class BenchIntervalsCommandTest {

    @Test
    void theCommandTimesEachSizeWithOrWithoutAnExcursion() {
        for (String excursion : new String[] {"0", "20"}) {
            StringWriter out = new StringWriter();
            CommandLine cmd = new CommandLine(new BenchIntervalsCommand());
            cmd.setOut(new PrintWriter(out));
            assertEquals(0, cmd.execute("--nodes", "30,60", "--links-per-node", "3", "--rounds", "3",
                    "--excursion", excursion));
            String[] lines = out.toString().strip().split("\n");
            assertEquals(3, lines.length, out.toString());
            assertTrue(lines[1].matches("\\s+30\\s+90\\s+1 \\|.*"), lines[1]);
            assertTrue(lines[2].matches("\\s+60\\s+180\\s+1 \\|.*"), lines[2]);
        }
        CommandLine cmd = new CommandLine(new BenchIntervalsCommand());
        cmd.setErr(new PrintWriter(new StringWriter()));
        assertEquals(2, cmd.execute("--excursion", "-1"));
        assertEquals(2, cmd.execute("--nodes", "1"));
    }
}
