package io.tracesync.environment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback address for the child processes to listen on, taken below the kernel's ephemeral
 * range: a port the kernel hands out for port 0 is one it also hands out as the source port of an outgoing
 * connection, and between the pick and the child's bind a client of the broker starting beside it took one
 * (Apicurio then exited: "Port … seems to be in use by another process").
 */
final class FreePorts {

    /** The lowest port picked: above the registered services most machines run. */
    static final int LOWEST = 20_000;

    private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 200;

    private FreePorts() {}

    /**
     * {@code count} distinct ports: all sockets stay bound until every port is picked; below the ephemeral range when
     * the kernel says where it begins and leaves room, else as the kernel hands them out.
     */
    static int[] pick(int count) {
        int ephemeralStart = ephemeralStart();
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = ephemeralStart > LOWEST + 1_000 ? below(ephemeralStart) : null;
                if (socket == null) {
                    socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                }
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port stays usable
                }
            }
        }
    }

    /** A socket bound to a random free port in [LOWEST, end), or null if none of a few tries was free. */
    private static ServerSocket below(int end) {
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
            try {
                return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
            } catch (IOException taken) {
                // try another
            }
        }
        return null;
    }

    /** The first port of the kernel's ephemeral range (Linux), or 0 when it does not say. */
    static int ephemeralStart() {
        try {
            return Integer.parseInt(Files.readString(EPHEMERAL).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
