package io.tracesync.bench;

import io.tracesync.environment.KafkaTools;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The physical limit of the same broker: Kafka's own ConsumerPerformance reading the same records, with the
 * application's client settings. Its {@code fetch.nMsg.sec} leaves out the group's join time, as the application's
 * figure leaves out its start-up.
 */
final class ConsumerPerformanceRun {

    record Result(long records, double recordsPerSecond, double fetchRecordsPerSecond, String raw) {
    }

    private ConsumerPerformanceRun() {
    }

    static Result run(String bootstrap, Path clientConfig, String topic, long records, Path workDir)
            throws IOException {
        String out = KafkaTools.run("ConsumerPerformance", List.of("--bootstrap-server", bootstrap,
                "--command-config", clientConfig.toAbsolutePath().toString(), "--topic", topic,
                "--num-records", Long.toString(records), "--timeout", "60000"), workDir, Duration.ofMinutes(10));
        return parse(out);
    }

    /** Reads the header line and the line of figures under it. */
    static Result parse(String out) {
        List<String> lines = out.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).contains("nMsg.sec")) {
                String[] names = lines.get(i).split(",\\s*");
                String[] values = lines.get(i + 1).split(",\\s*");
                Map<String, String> m = new HashMap<>();
                for (int k = 0; k < Math.min(names.length, values.length); k++) {
                    m.put(names[k], values[k]);
                }
                return new Result(Long.parseLong(m.get("data.consumed.in.nMsg")), Double.parseDouble(m.get("nMsg.sec")),
                        Double.parseDouble(m.get("fetch.nMsg.sec")), out);
            }
        }
        throw new IllegalStateException("ConsumerPerformance printed no figures:\n" + out);
    }
}
