package io.tracesync.console;

import io.tracesync.schema.RestSchemaRegistryClient;
import io.tracesync.schema.SerdeConfig;
import io.tracesync.streams.Settings;
import io.tracesync.streams.config.TracesyncConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Before a command talks to Kafka for good: the brokers answer (one Admin request, bounded by
 * {@code startup.check.timeout}) and so does the schema registry (one GET of its subjects). Otherwise the command
 * ends at once with one line naming what did not answer and the setting to check, instead of retrying for a
 * minute with a flood of client warnings.
 */
public final class StartupCheck {

    private StartupCheck() {
    }

    /** How long a connection to a bootstrap address may take before it counts as not listening. */
    private static final int CONNECT_MS = 1000;

    /**
     * Checks the brokers, then the registry; nothing when {@code startup.check.timeout} is none. When nothing listens
     * at any bootstrap address, one line on {@code err} says what the command waits for, and for how long (a slow
     * broker that accepts the connection gets none).
     *
     * @throws UserError naming what did not answer and the setting to check
     */
    public static void run(Settings settings, PrintWriter err) {
        Duration timeout = settings.duration(TracesyncConfig.STARTUP_CHECK_TIMEOUT_CONFIG);
        if (timeout.isZero()) {
            return;
        }
        brokers(settings, timeout, err);
        registry(settings, timeout);
    }

    private static void brokers(Settings settings, Duration timeout, PrintWriter err) {
        String bootstrap = settings.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Properties p = new Properties();
        p.putAll(settings.streamsProperties());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        try (Admin admin = Admin.create(p)) {
            if (!listening(bootstrap)) {
                err.println("waiting for a Kafka broker at " + bootstrap + " (up to " + seconds(timeout)
                        + ", startup.check.timeout)...");
                err.flush();
            }
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes().get(ms + 1000L,
                    TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            boolean silent = cause instanceof TimeoutException
                    || cause instanceof org.apache.kafka.common.errors.TimeoutException;
            throw new UserError((silent ? "no Kafka broker answered at " + bootstrap + " within " + seconds(timeout)
                    : "the Kafka brokers at " + bootstrap + " refused the connection: " + cause.getMessage())
                    + "; check bootstrap.servers (and security.protocol, ssl.*, sasl.* for a secured cluster), or "
                    + "raise startup.check.timeout", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while checking the Kafka brokers at " + bootstrap, e);
        }
    }

    private static void registry(Settings settings, Duration timeout) {
        String url = settings.get(SerdeConfig.URL);
        if (url == null || url.startsWith("mock://")) {
            return;
        }
        Map<String, Object> config = new HashMap<>(settings.serdeConfig());
        config.put(SerdeConfig.REQUEST_TIMEOUT, Long.toString(timeout.toMillis()));
        try {
            new RestSchemaRegistryClient(SerdeConfig.parse(config)).ping();
        } catch (SerializationException | IllegalArgumentException e) {
            throw new UserError("the schema registry at " + url + " did not answer as one: " + e.getMessage()
                    + "; check schema.registry.url (Apicurio: http://HOST:PORT/apis/ccompat/v7) and basic.auth.*", e);
        }
    }

    /** Whether a TCP connection to any of the bootstrap addresses ({@code host:port,[v6]:port,…}) is accepted. */
    private static boolean listening(String bootstrap) {
        for (String address : bootstrap.split(",")) {
            String a = address.strip();
            int colon = a.lastIndexOf(':');
            if (colon <= 0) {
                continue;
            }
            String host = a.substring(0, colon).replaceAll("^\\[|\\]$", "");
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, Integer.parseInt(a.substring(colon + 1))), CONNECT_MS);
                return true;
            } catch (IOException | IllegalArgumentException e) {
                // not this one
            }
        }
        return false;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
