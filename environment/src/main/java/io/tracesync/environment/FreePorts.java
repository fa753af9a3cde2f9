package io.tracesync.environment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Every port picked in this process. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /**
     * {@code count} distinct ports, none handed out before in this process (two services started one after the
     * other each pick theirs before the first listens: a registry and a broker once got the same port): all sockets
     * stay bound until every port is picked; below the ephemeral range when the kernel says where it begins and
     * leaves room, else as the kernel hands them out.
     */
    static int[] pick(int count) {
        int ephemeralStart = ephemeralStart();
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = ephemeralStart > LOWEST + 1_000 ? below(ephemeralStart) : null;
                while (socket == null || !HANDED_OUT.add(socket.getLocalPort())) {
                    if (socket != null) {
                        sockets.add(socket);
                    }
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
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try {
                return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
            } catch (IOException taken) {
                // try another
            }
        }
        return null;
    }

    /**
     * The first port of the kernel's ephemeral range (Linux), or 0 when it does not say. Read as a stream to its
     * end: a /proc file reports no size, and {@code Files.readString} returned its first byte alone on one kernel.
     */
    static int ephemeralStart() {
        try (BufferedReader in = Files.newBufferedReader(EPHEMERAL)) {
            return Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
