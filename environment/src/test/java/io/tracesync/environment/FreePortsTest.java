package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /**
     * Distinct ports that can be bound, below the kernel's ephemeral range where it says where that begins, so that
     * no outgoing connection takes one before the child listens on it.
     */
    /** Where the kernel says its ephemeral range begins, this reads it (a /proc file reports no size). */
    @Test
    void readsWhereTheEphemeralRangeBegins() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        int expected = Files.isReadable(range)
                ? Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]) : 0;
        assertEquals(expected, FreePorts.ephemeralStart());
    }

    @Test
    void neverHandsOutAPortTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int round = 0; round < 200; round++) {
            for (int port : FreePorts.pick(2)) {
                assertTrue(seen.add(port), "port " + port + " handed out again");
            }
        }
    }

    @Test
    void picksDistinctBindablePortsBelowTheEphemeralRange() throws IOException {
        int ephemeral = FreePorts.ephemeralStart();
        for (int round = 0; round < 20; round++) {
            int[] ports = FreePorts.pick(4);
            for (int i = 0; i < ports.length; i++) {
                for (int j = i + 1; j < ports.length; j++) {
                    assertNotEquals(ports[i], ports[j]);
                }
                if (ephemeral > FreePorts.LOWEST + 1_000) {
                    assertTrue(ports[i] >= FreePorts.LOWEST && ports[i] < ephemeral, ports[i] + " vs " + ephemeral);
                }
                try (ServerSocket socket = new ServerSocket(ports[i], 1, InetAddress.getLoopbackAddress())) {
                    assertEquals(ports[i], socket.getLocalPort());
                }
            }
        }
    }
}
