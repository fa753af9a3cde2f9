package io.tracesync.streams.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.Settings;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.health.GroupStatus;
import io.tracesync.streams.health.Health;
import io.tracesync.streams.health.Replication;
import io.tracesync.streams.iq.NetworkQueries;
import io.tracesync.streams.iq.StoreUnavailableException;
import io.tracesync.streams.metrics.AppMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of an instance ({@code http.host}:{@code http.port}): health for orchestrators, Prometheus metrics,
 * the network's interactive queries routed to the instance that runs the network task ({@code application.server}
 * names each instance's address), the OpenAPI description and the live view (its script, and the WebJars on the
 * classpath under {@code /webjars/}). GET only.
 */
public final class OperationsServer implements AutoCloseable {

    /** Set on a request one instance forwards to another, so that a moved task cannot make a loop. */
    static final String FORWARDED = "X-Tracesync-Forwarded";

    private static final Logger LOG = LoggerFactory.getLogger(OperationsServer.class);
    private static final Map<String, String> STATIC = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/forest.js", "forest.js",
            "/openapi.json", "openapi.json");
    private static final String WEBJARS = "/webjars/";

    private final KafkaStreams streams;
    private final AppMetrics metrics;
    private final NetworkApi network;
    private final NetworkQueries queries;
    private final HostInfo self;
    private final Settings settings;
    private final Admin admin;
    private final ApplicationGroup group;
    private final Forwarder forwarder = new Forwarder();
    private final HttpServer server;
    private final ExecutorService executor;

    private OperationsServer(Settings settings, KafkaStreams streams, AppMetrics metrics, KnownTruth truth)
            throws IOException {
        this.streams = streams;
        this.metrics = metrics;
        this.settings = settings;
        Properties adminProperties = settings.streamsProperties();
        // a health check answers within seconds, the broker down or not
        adminProperties.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        adminProperties.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "4000");
        this.admin = Admin.create(adminProperties);
        this.group = ApplicationGroup.of(admin, settings);
        this.queries = new NetworkQueries(streams, settings.regions() != null);
        this.network = new NetworkApi(queries, truth);
        String server = settings.get(StreamsConfig.APPLICATION_SERVER_CONFIG);
        this.self = server == null || server.isEmpty() ? null : HostInfo.buildFromEndpoint(server);
        this.server = HttpServer.create(new InetSocketAddress(settings.get(TracesyncConfig.HTTP_HOST_CONFIG),
                Integer.parseInt(settings.get(TracesyncConfig.HTTP_PORT_CONFIG))), 64);
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "tracesync-http");
            t.setDaemon(true);
            return t;
        });
        this.server.setExecutor(executor);
        this.server.createContext("/", this::handle);
    }

    /** Starts serving; {@code http.port=0} takes a free port ({@link #port()}). */
    public static OperationsServer start(Settings settings, KafkaStreams streams, AppMetrics metrics)
            throws IOException {
        return start(settings, streams, metrics, null);
    }

    /** {@link #start(Settings, KafkaStreams, AppMetrics)}, showing true errors where {@code truth} knows them. */
    public static OperationsServer start(Settings settings, KafkaStreams streams, AppMetrics metrics,
            KnownTruth truth) throws IOException {
        OperationsServer s = new OperationsServer(settings, streams, metrics, truth);
        s.server.start();
        String host = settings.get(TracesyncConfig.HTTP_HOST_CONFIG);
        LOG.info("HTTP on {}:{}: the live view at http://{}:{}/, /health, /metrics and the queries{}", host, s.port(),
                host.equals("0.0.0.0") ? "127.0.0.1" : host, s.port(),
                s.self == null ? "" : "; this instance is " + s.self.host() + ":" + s.self.port());
        String portFile = settings.get(TracesyncConfig.HTTP_PORT_FILE_CONFIG);
        if (!portFile.isEmpty()) {
            tell(Path.of(portFile), s.port());
        }
        return s;
    }

    /** Writes {@code port} to {@code file} whole: beside it first, then moved in place in one step. */
    private static void tell(Path file, int port) throws IOException {
        Path written = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(written, port + "\n", StandardCharsets.US_ASCII);
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            Reply reply;
            try {
                reply = "GET".equals(exchange.getRequestMethod()) ? answer(exchange)
                        : NetworkApi.error(405, "only GET is served");
            } catch (RuntimeException e) {
                LOG.warn("{} failed", exchange.getRequestURI(), e);
                reply = NetworkApi.error(500, e.toString());
            }
            send(exchange, reply);
        } catch (IOException e) {
            LOG.debug("client went away: {}", e.toString());
        }
    }

    private Reply answer(HttpExchange exchange) {
        URI uri = exchange.getRequestURI();
        String path = uri.getPath();
        switch (path) {
            case "/health" -> {
                return health(false, true);
            }
            case "/health/ready" -> {
                return health(false, false);
            }
            case "/health/live" -> {
                return health(true, false);
            }
            case "/metrics" -> {
                return Reply.text(200, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape());
            }
            default -> {
                if (STATIC.containsKey(path)) {
                    return resource(STATIC.get(path));
                }
                if (path.startsWith(WEBJARS)) {
                    return webjar(path);
                }
            }
        }
        List<String> segments = segments(path);
        Map<String, String> query = query(uri.getRawQuery());
        if (!isNetworkPath(segments)) {
            return NetworkApi.error(404, "no such endpoint: " + path + " (see /openapi.json)");
        }
        Optional<HostInfo> active = queries.activeHost();
        if (self != null && active.isPresent() && !active.get().equals(self)) {
            if (exchange.getRequestHeaders().containsKey(FORWARDED)) {
                return unavailable("the network task moved while this request was forwarded");
            }
            return forwarder.forward(active.get(), uri);
        }
        if (self != null && active.isEmpty()) {
            return unavailable("no instance runs the network task now (starting or rebalancing)");
        }
        try {
            Reply reply = network.answer(segments, query);
            return reply != null ? reply : NetworkApi.error(404, "no such endpoint: " + path + " (see /openapi.json)");
        } catch (StoreUnavailableException e) {
            return unavailable(e.getMessage() + (self == null
                    ? " (with several instances, set application.server on each so queries are routed)" : ""));
        }
    }

    private static boolean isNetworkPath(List<String> segments) {
        return !segments.isEmpty() && List.of("factors", "links", "tree", "convert").contains(segments.get(0));
    }

    /**
     * The probes' answer; with {@code replication} also the tasks and store lags and the group as the broker tells
     * it, which cost broker requests.
     */
    private Reply health(boolean liveness, boolean replication) {
        Health h = Health.of(streams, metrics.waitingFor());
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("state", h.state().name());
        o.put("live", h.live());
        o.put("ready", h.ready());
        if (h.waitingFor() != null) {
            o.put("waitingFor", h.waitingFor());
        }
        o.set("threads", AvroJson.of(h.threads()));
        if (replication) {
            Replication r = Replication.of(streams);
            ObjectNode tasks = o.putObject("replication");
            tasks.put("activeTasks", r.activeTasks());
            tasks.put("standbyTasks", r.standbyTasks());
            if (r.maxLag() >= 0) {
                tasks.put("maxStoreLag", r.maxLag());
            } else {
                tasks.putNull("maxStoreLag");
            }
            GroupStatus g = GroupStatus.of(group, settings);
            ObjectNode groupNode = o.putObject("group");
            if (g.error() != null) {
                groupNode.put("error", g.error());
            } else {
                groupNode.put("protocol", g.protocol());
                groupNode.put("state", g.state());
                groupNode.put("members", g.members());
                groupNode.put("standbyReplicas", g.standbyReplicas());
            }
        }
        return Reply.json((liveness ? h.live() : h.ready()) ? 200 : 503, o.toString());
    }

    private static Reply unavailable(String why) {
        return NetworkApi.error(503, why);
    }

    private static Reply resource(String name) {
        try (InputStream in = OperationsServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new Reply(200, contentType(name), in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A script or style sheet of a WebJar on the classpath ({@code /webjars/NAME/VERSION/FILE} is
     * {@code META-INF/resources/webjars/NAME/VERSION/FILE}); 404 for anything else, and for a path with an empty,
     * {@code .} or {@code ..} segment.
     */
    private static Reply webjar(String path) {
        String name = path.substring(WEBJARS.length());
        boolean safe = (name.endsWith(".js") || name.endsWith(".css")) && !name.contains("\\")
                && Arrays.stream(name.split("/", -1)).noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
        try (InputStream in = safe ? OperationsServer.class.getClassLoader()
                .getResourceAsStream("META-INF/resources/webjars/" + name) : null) {
            return in == null ? NetworkApi.error(404, "no such file: " + path)
                    : new Reply(200, contentType(name), in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String contentType(String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return switch (extension) {
            case "json" -> Reply.JSON;
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            default -> "text/html; charset=utf-8";
        };
    }

    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null) {
            Arrays.stream(raw.split("&")).filter(p -> !p.isEmpty()).forEach(p -> {
                int eq = p.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? p : p.substring(0, eq), StandardCharsets.UTF_8);
                out.put(k, eq < 0 ? "" : URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8));
            });
        }
        return out;
    }

    private static void send(HttpExchange exchange, Reply reply) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", reply.contentType());
        if (reply.status() == 503) {
            exchange.getResponseHeaders().set("Retry-After", "1");
        }
        exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply.body());
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        admin.close(Duration.ofSeconds(5));
    }
}
