package io.tracesync.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    /**
     * Distinct ports that can be bound, below the kernel's ephemeral range where it says where that begins, so that
     * no outgoing connection takes one before the child listens on it.
     */
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
