package io.tracesync.lttng;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrettyLineTest {

    /** The lines of a fixture: babeltrace2 2.0.4's text output (--clock-cycles, --no-delta). */
    static List<String> fixture(String name) throws IOException {
        try (InputStream in = PrettyLineTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void readsTheSocketEventsOfTheScpTrace() throws Exception {
        PrettyLine l = PrettyLine.parse(fixture("scp_src-socket-events.txt").get(5));
        assertEquals(10533523726746L, l.cycles());
        assertEquals("VM1", l.host());
        assertEquals("inet_connect", l.event());
        assertEquals("0", l.field("cpu_id"));
        assertEquals("0xFFFF88001D513100", l.field("sk"));
        assertEquals("0xA000A04", l.field("saddr"));
        assertEquals("0x16", l.field("dport"));
    }

    @Test
    void readsStringsAndEveryLineOfTheFixtures() throws Exception {
        PrettyLine l = PrettyLine.parse(fixture("scp_src-socket-events.txt").get(0));
        assertEquals("sched_switch", l.event());
        assertEquals("lttng-sessiond", l.field("prev_comm"));
        for (String f : List.of("scp_src-socket-events.txt", "scp_dest-socket-events.txt", "device-events.txt")) {
            for (String line : fixture(f)) {
                assertTrue(PrettyLine.parse(line).fields().size() > 1, line);
            }
        }
    }

    @Test
    void flattensVariantsArraysAndEnumerations() throws Exception {
        PrettyLine l = PrettyLine.parse(fixture("device-events.txt").get(0));
        assertEquals("node-a", l.host());
        assertEquals("net_dev_queue", l.event());
        assertEquals("eth0", l.field("name"));
        assertEquals("1", l.field("network_header_type"));
        assertEquals("6", l.field("network_header.protocol"));
        assertEquals("21", l.field("network_header.daddr[3]"));
        assertEquals("2769203724", l.field("network_header.transport_header.seq"));
        assertEquals("2769203724", l.find("network_header", "seq"));
        assertEquals("0", l.find("network_header", "ack_seq"));
        assertNull(l.find("network_header", "sport"));
    }

    @Test
    void aLineWithoutHostnameHasNone() throws Exception {
        PrettyLine l = PrettyLine.parse("[00000000000000000042] irq_handler_entry: { cpu_id = 1 }, { irq = 19, "
                + "name = \"a \\\"quoted\\\" name\" }");
        assertNull(l.host());
        assertEquals("irq_handler_entry", l.event());
        assertEquals("a \"quoted\" name", l.field("name"));
    }

    @Test
    void refusesWhatIsNotAnEventLine() {
        assertTrue(assertThrows(PrettyLine.BadLine.class, () -> PrettyLine.parse("[19:01:16.525090092] VM1 x: { }"))
                .getMessage().contains("--clock-cycles"));
        assertThrows(PrettyLine.BadLine.class, () -> PrettyLine.parse("[00000000000000000042] VM1 x: { a = 1"));
        assertThrows(PrettyLine.BadLine.class, () -> PrettyLine.parse("[00000000000000000042] VM1 x: { a 1 }"));
        assertThrows(PrettyLine.BadLine.class, () -> PrettyLine.parse("[00000000000000000042] VM1 x { a = 1 }"));
        assertThrows(PrettyLine.BadLine.class, () -> PrettyLine.parse("ERROR: [Babeltrace CLI]"));
    }
}
