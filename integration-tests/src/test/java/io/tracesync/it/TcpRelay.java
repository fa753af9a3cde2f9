package io.tracesync.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a loopback port in front of a service, which a test can cut (connections refused, open ones
 * closed) and restore on the same port: a network outage of that service as its clients see it.
 */
final class TcpRelay implements AutoCloseable {

    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    private TcpRelay(InetSocketAddress target, int port) {
        this.target = target;
        this.port = port;
    }

    /** A relay to {@code url}'s host and port on a free port, not yet accepting. */
    static TcpRelay to(String url) throws IOException {
        URI u = URI.create(url);
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return new TcpRelay(new InetSocketAddress(u.getHost(), u.getPort()), probe.getLocalPort());
        }
    }

    /** {@code url} with its host and port replaced by the relay's. */
    String relayed(String url) {
        URI u = URI.create(url);
        return u.getScheme() + "://127.0.0.1:" + port + u.getRawPath();
    }

    /** Starts accepting and relaying. */
    synchronized void restore() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = s;
        daemon("relay-accept", () -> {
            while (!s.isClosed()) {
                try {
                    Socket client = s.accept();
                    Socket upstream = new Socket(target.getAddress(), target.getPort());
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /** Refuses new connections and closes the open ones. */
    synchronized void cut() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private void pump(Socket from, Socket to) {
        daemon("relay-pump", () -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException closed) {
                // the other direction or cut() closes both
            } finally {
                close(from);
                close(to);
            }
        });
    }

    private void close(Socket s) {
        sockets.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }
}
