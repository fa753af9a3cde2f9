package io.tracesync.streams.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** An option that names an application key takes the key's default; the others keep their own. */
class OptionDefaultsTest {

    @Command(name = "c", defaultValueProvider = OptionDefaults.class)
    static final class Keyed {
        @Option(names = "--horizon", descriptionKey = "link.horizon")
        String horizon;

        @Option(names = "--min-change", descriptionKey = "links.min.change")
        double minChange;

        @Option(names = "--other", defaultValue = "7")
        int other;

        @Option(names = "--unknown", descriptionKey = "no.such.key", defaultValue = "x")
        String unknown;
    }

    @Test
    void anOptionOfAKeyTakesItsDefault() {
        Keyed c = new Keyed();
        new CommandLine(c).parseArgs();
        assertEquals("30m", c.horizon);
        assertEquals(0.1, c.minChange);
        assertEquals(7, c.other);
        assertEquals("x", c.unknown);
        Keyed given = new Keyed();
        new CommandLine(given).parseArgs("--horizon", "2h");
        assertEquals("2h", given.horizon);
    }
}
