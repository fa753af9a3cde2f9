package io.tracesync.client.example;

import io.tracesync.client.SyncClock;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * {@link TimestampRewriter}'s command line.
 *
 * @param client every client setting: the file's, then {@code -D}'s, then the flags' (later ones win)
 * @param input the trace topic read
 * @param output the topic written
 * @param groupId the consumer group whose committed offsets say where to resume
 * @param catchUp how long to wait for the factors before the first event
 * @param toEnd stop at the input's end offsets found at the start, instead of following it
 */
public record RewriterOptions(Map<String, String> client, String input, String output, String groupId,
        Duration catchUp, boolean toEnd) {

    public static final String USAGE = """
            Usage: timestamp-rewriter --input TOPIC --output TOPIC [--bootstrap-servers B]
                                      [--schema-registry-url URL] [--factors-topic T] [--group-id G]
                                      [--catch-up-seconds S] [--to-end] [--config FILE] [-D KEY=VALUE]... [--help]

            Copies the trace events (Avro TraceEvent) of --input to --output with their timestamps (ts_ns)
            converted to the reference clock of their node's component, each by the factors in force at its own
            time (sync.factors and its history, -D history.topic=...), and the guaranteed bounds in the headers
            tracesync.lower_ns / tracesync.upper_ns. Events of nodes without a factor are passed through
            unchanged with the header tracesync.status=no-factor.

              --input TOPIC              trace topic to read (all its partitions)
              --output TOPIC             topic to write
              --bootstrap-servers B      brokers (default 127.0.0.1:9092)
              --schema-registry-url URL  Confluent-compatible registry
                                         (default http://127.0.0.1:8081/apis/ccompat/v7)
              --factors-topic T          the factors topic (default sync.factors)
              --group-id G               consumer group of the input (default tracesync-timestamp-rewriter)
              --catch-up-seconds S       wait at most S s for the factors before rewriting (default 60)
              --to-end                   stop at the input's end at the start instead of following it
              --config FILE              client properties (security.protocol, ssl.*, sasl.*, ...)
              -D KEY=VALUE               one client property; overrides --config
              --help                     this text
            """;

    /** Thrown for a bad command line; the message says what is wrong. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /**
     * The options of {@code args}, or null if {@code --help} was asked for.
     *
     * @throws UsageException if an option is unknown, lacks its value, or a required one is missing
     * @throws IOException if the --config file cannot be read
     */
    public static RewriterOptions parse(String... args) throws UsageException, IOException {
        Map<String, String> file = new HashMap<>();
        Map<String, String> defines = new HashMap<>();
        Map<String, String> flags = new HashMap<>();
        String input = null;
        String output = null;
        String groupId = "tracesync-timestamp-rewriter";
        long catchUp = 60;
        boolean toEnd = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--to-end" -> toEnd = true;
                case "--input" -> input = value(args, ++i, a);
                case "--output" -> output = value(args, ++i, a);
                case "--group-id" -> groupId = value(args, ++i, a);
                case "--catch-up-seconds" -> catchUp = seconds(value(args, ++i, a));
                case "--bootstrap-servers" -> flags.put("bootstrap.servers", value(args, ++i, a));
                case "--schema-registry-url" -> flags.put("schema.registry.url", value(args, ++i, a));
                case "--factors-topic" -> flags.put(SyncClock.TOPIC_CONFIG, value(args, ++i, a));
                case "--config" -> file.putAll(load(Path.of(value(args, ++i, a))));
                case "-D" -> define(defines, value(args, ++i, a));
                default -> {
                    if (a.startsWith("-D") && a.length() > 2) {
                        define(defines, a.substring(2));
                    } else {
                        throw new UsageException("unknown option " + a);
                    }
                }
            }
        }
        if (input == null || output == null) {
            throw new UsageException("--input and --output are required");
        }
        Map<String, String> client = new HashMap<>();
        client.put("bootstrap.servers", "127.0.0.1:9092");
        client.put("schema.registry.url", "http://127.0.0.1:8081/apis/ccompat/v7");
        client.putAll(file);
        client.putAll(defines);
        client.putAll(flags);
        return new RewriterOptions(Map.copyOf(client), input, output, groupId, Duration.ofSeconds(catchUp), toEnd);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static long seconds(String s) throws UsageException {
        try {
            long v = Long.parseLong(s);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--catch-up-seconds takes a number of seconds >= 0, not " + s);
    }

    private static void define(Map<String, String> defines, String kv) throws UsageException {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new UsageException("-D takes KEY=VALUE, not " + kv);
        }
        defines.put(kv.substring(0, eq), kv.substring(eq + 1));
    }

    private static Map<String, String> load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }
}
