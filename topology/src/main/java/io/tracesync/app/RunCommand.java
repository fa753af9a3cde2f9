package io.tracesync.app;

import io.tracesync.console.ProgressLine;
import io.tracesync.console.SettingsOptions;
import io.tracesync.console.StartupCheck;
import io.tracesync.console.UserError;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TracesyncApp;
import io.tracesync.streams.config.TracesyncConfig;
import io.tracesync.streams.http.OperationsServer;
import io.tracesync.streams.metrics.AppMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync run}: the streaming application, until interrupted. */
@Command(name = "run",
        header = "Run the application: trace topics in, every node's factors out.",
        mixinStandardHelpOptions = true,
        description = {"Runs the tracesync Kafka Streams application: per-node trace topics in, conversion factors "
                + "to each component's reference clock out (sync.factors), with sync.links, sync.tree and the "
                + "dead-letter topic sync.dlq.",
                "Configuration, later sources winning: built-in defaults, --config FILE (Java properties: any Kafka "
                + "Streams, client or schema.registry.* key, and tracesync's keys: docs/STREAMS.md, Configuration), "
                + "environment variables TRACESYNC_<KEY> (upper case, '.' as '_', e.g. TRACESYNC_BOOTSTRAP_SERVERS), "
                + "then flags.",
                "HTTP on http.host:http.port (default 127.0.0.1:8080; none: off): /health (/health/live, "
                + "/health/ready), /metrics (Prometheus), /factors, /links, /tree, /convert?node=N&t=NS, "
                + "/openapi.json and a live view at /."})
public final class RunCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions options;

    @Option(names = "--application-id", paramLabel = "ID", description = "Kafka Streams application.id.")
    String applicationId;

    @Option(names = "--print-config", description = "Print the effective configuration (secrets hidden) and exit.")
    boolean printConfig;

    @Override
    public Integer call() throws Exception {
        if (applicationId != null) {
            options.set("application.id", applicationId);
        }
        Settings settings = options.load();
        PrintWriter out = spec.commandLine().getOut();
        if (printConfig) {
            out.print(settings.describe());
            out.flush();
            return 0;
        }
        StartupCheck.run(settings, spec.commandLine().getErr());
        requireFreePort(settings);
        PrintWriter err = spec.commandLine().getErr();
        Shutdown shutdown = new Shutdown(err);
        // before the application starts: a Ctrl-C from now on is answered, whatever is still starting
        Thread hook = new Thread(shutdown::run, "tracesync-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            TracesyncApp app = shutdown.start(settings);
            if (app == null) {
                return 0;
            }
            try (app; AppMetrics metrics = new AppMetrics(app.streams(), app.stats());
                 OperationsServer http = serve(settings, app, metrics)) {
                ProgressLine progress = new ProgressLine(err);
                while (!shutdown.awaitStopped()) {
                    progress.show(app.stats());
                }
            }
        } catch (Exception | Error e) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook); // failed: its error is the last word, not "stopped"
            } catch (IllegalStateException shuttingDown) {
                // the hook runs already
            }
            throw e;
        }
        return 0;
    }

    /**
     * What a Ctrl-C (SIGTERM) does: it waits until the application is started, if it is being started, closes it and
     * says so; once it has begun, the application is not started any more.
     */
    private static final class Shutdown {
        private final PrintWriter err;
        private final CountDownLatch stopped = new CountDownLatch(1);
        private TracesyncApp app;
        private boolean stopping;

        Shutdown(PrintWriter err) {
            this.err = err;
        }

        /** Starts the application unless a stop has begun; null then. */
        synchronized TracesyncApp start(Settings settings) throws InterruptedException {
            if (!stopping) {
                app = TracesyncApp.start(settings);
            }
            return app;
        }

        void run() {
            TracesyncApp started;
            synchronized (this) {
                stopping = true;
                started = app;
            }
            err.println();
            err.println(started != null && started.streams().state() == KafkaStreams.State.REBALANCING
                    ? "stopping: Kafka Streams first lets the group's rebalance end (up to 30 s)..."
                    : "stopping...");
            err.flush();
            boolean closed = started == null || started.stop();
            err.println(closed ? "stopped" : "stopped without Kafka Streams closing within 30 s (state "
                    + started.streams().state() + ")");
            err.flush();
            stopped.countDown();
        }

        /** Waits a second for the stop; whether it has come. */
        boolean awaitStopped() throws InterruptedException {
            return stopped.await(1, TimeUnit.SECONDS);
        }
    }

    /**
     * Fails before the application starts if the HTTP port is taken (a port given, not 0 or none): a moment's race
     * with another process remains, which {@link OperationsServer#start} then reports the same way.
     */
    private static void requireFreePort(Settings settings) throws IOException {
        String port = settings.get(TracesyncConfig.HTTP_PORT_CONFIG);
        if (port.equals(TracesyncConfig.NONE) || port.equals("0")) {
            return;
        }
        String host = settings.get(TracesyncConfig.HTTP_HOST_CONFIG);
        try {
            new ServerSocket(Integer.parseInt(port), 1, InetAddress.getByName(host)).close();
        } catch (BindException e) {
            throw portInUse(settings, e);
        }
    }

    private static UserError portInUse(Settings settings, BindException e) {
        return new UserError("cannot serve HTTP on " + settings.get(TracesyncConfig.HTTP_HOST_CONFIG) + ":"
                + settings.get(TracesyncConfig.HTTP_PORT_CONFIG) + " (" + e.getMessage() + "): set http.port "
                + "(0: any free port, none: no HTTP)", e);
    }

    /** The HTTP side (health, metrics, queries), unless {@code http.port=none}; null then. */
    private static OperationsServer serve(Settings settings, TracesyncApp app, AppMetrics metrics) throws IOException {
        if (settings.get(TracesyncConfig.HTTP_PORT_CONFIG).equals(TracesyncConfig.NONE)) {
            return null;
        }
        try {
            return OperationsServer.start(settings, app.streams(), metrics);
        } catch (BindException e) {
            throw portInUse(settings, e);
        }
    }
}
