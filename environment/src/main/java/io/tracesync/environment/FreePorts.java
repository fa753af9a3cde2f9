package io.tracesync.environment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free TCP ports on the loopback address, as the operating system hands them out for port 0. */
final class FreePorts {
    private FreePorts() {}

    /** {@code count} distinct ports: all sockets stay bound until every port is picked. */
    static int[] pick(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
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
}
