package io.tracesync.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ground truth of a simulation directory read back: every node's exact clock (from {@code truth-clocks.csv}
 * and the resolutions in {@code truth.json}) and every directed link's minimum delay — what an evaluation needs
 * to know the true time of any timestamp.
 */
public final class GroundTruth {

    private final Map<String, PiecewiseLinearClock> clocks;
    private final Map<String, Long> minDelays;
    private final Map<String, String> parameters;
    private final List<Jump> jumps;
    private final List<FrequencyStep> steps;
    private final List<Slew> slews;

    /** A jump of a node's clock at true time {@code trueNs}, forward by {@code sizeNs} ({@link ClockJumps}). */
    public record Jump(String node, long trueNs, long sizeNs) {
    }

    /**
     * A step of a node's frequency by its time daemon at true time {@code trueNs}, by {@code ppm} (a poll, or the
     * end of a slew: {@link ClockEvent}).
     */
    public record FrequencyStep(String node, long trueNs, double ppm) {
    }

    /**
     * An offset of {@code ns} a node's daemon set out to slew at true time {@code trueNs} ({@link ClockEvent#SLEW}).
     */
    public record Slew(String node, long trueNs, double ns) {
    }

    private GroundTruth(Map<String, PiecewiseLinearClock> clocks, Map<String, Long> minDelays,
            Map<String, String> parameters, List<Jump> jumps, List<FrequencyStep> steps, List<Slew> slews) {
        this.clocks = clocks;
        this.minDelays = minDelays;
        this.parameters = parameters;
        this.jumps = jumps;
        this.steps = steps;
        this.slews = slews;
    }

    /**
     * Reads {@code dir/truth.json}, {@code dir/truth-clocks.csv} and, where the simulator wrote it, {@code
     * dir/truth-clock-events.csv}.
     */
    public static GroundTruth read(Path dir) throws IOException {
        JsonNode root = new ObjectMapper().readTree(dir.resolve(TruthJson.FILE).toFile());
        if (!TruthJson.FORMAT.equals(root.path("format").asText())) {
            throw new IOException(dir.resolve(TruthJson.FILE) + " is not a " + TruthJson.FORMAT + " file");
        }
        Map<String, Long> resolution = new LinkedHashMap<>();
        for (JsonNode n : root.get("nodes")) {
            resolution.put(n.get("node").asText(), n.get("resolution_ns").asLong());
        }
        Map<String, Long> minDelays = new LinkedHashMap<>();
        for (JsonNode l : root.get("links")) {
            String client = l.get("client").asText();
            String server = l.get("server").asText();
            minDelays.put(key(client, server), l.get("min_delay_client_to_server_ns").asLong());
            minDelays.put(key(server, client), l.get("min_delay_server_to_client_ns").asLong());
        }
        Map<String, long[][]> points = new LinkedHashMap<>();
        Map<String, Integer> sizes = new LinkedHashMap<>();
        try (BufferedReader in = Files.newBufferedReader(dir.resolve("truth-clocks.csv"), StandardCharsets.US_ASCII)) {
            in.readLine();
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(",");
                long[][] p = points.computeIfAbsent(f[0], k -> new long[2][4]);
                int n = sizes.merge(f[0], 1, Integer::sum);
                if (n > p[0].length) {
                    p[0] = Arrays.copyOf(p[0], 2 * n);
                    p[1] = Arrays.copyOf(p[1], 2 * n);
                }
                p[0][n - 1] = Long.parseLong(f[1]);
                p[1][n - 1] = Long.parseLong(f[2]);
            }
        }
        Map<String, PiecewiseLinearClock> clocks = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : resolution.entrySet()) {
            long[][] p = points.get(e.getKey());
            if (p == null) {
                throw new IOException("truth-clocks.csv has no breakpoints for node " + e.getKey());
            }
            int n = sizes.get(e.getKey());
            clocks.put(e.getKey(), new PiecewiseLinearClock(Arrays.copyOf(p[0], n), Arrays.copyOf(p[1], n),
                    e.getValue()));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("seed", root.path("seed").asText());
        root.path("config").fields().forEachRemaining(e -> parameters.put(e.getKey(), e.getValue().asText()));
        List<Jump> jumps = new ArrayList<>();
        List<FrequencyStep> steps = new ArrayList<>();
        List<Slew> slews = new ArrayList<>();
        Path events = dir.resolve(OutputDirectory.CLOCK_EVENTS);
        if (Files.exists(events)) {
            try (BufferedReader in = Files.newBufferedReader(events, StandardCharsets.US_ASCII)) {
                in.readLine();
                String line;
                while ((line = in.readLine()) != null) {
                    String[] f = line.split(",");
                    if (f[2].equals("jump")) {
                        jumps.add(new Jump(f[0], Long.parseLong(f[1]), Long.parseLong(f[3])));
                    } else if (f[2].equals("slew")) {
                        slews.add(new Slew(f[0], Long.parseLong(f[1]), Double.parseDouble(f[3])));
                    } else {
                        steps.add(new FrequencyStep(f[0], Long.parseLong(f[1]), Double.parseDouble(f[3])));
                    }
                }
            }
        }
        return new GroundTruth(clocks, minDelays, Collections.unmodifiableMap(parameters), List.copyOf(jumps),
                List.copyOf(steps), List.copyOf(slews));
    }

    /** Every jump of every clock, in true-time order (none for a run made before jumps were simulated). */
    public List<Jump> jumps() {
        return jumps;
    }

    /** Every step of a daemon's frequency adjustment, in true-time order (none without a daemon). */
    public List<FrequencyStep> steps() {
        return steps;
    }

    /** Every offset a daemon set out to slew, in true-time order (none without chrony, or in runs made before). */
    public List<Slew> slews() {
        return slews;
    }

    /** The exact clock of a node. */
    public PiecewiseLinearClock clock(String node) {
        PiecewiseLinearClock c = clocks.get(node);
        if (c == null) {
            throw new IllegalArgumentException("no node " + node + " in the ground truth");
        }
        return c;
    }

    /** Node names in index order. */
    public Iterable<String> nodes() {
        return clocks.keySet();
    }

    /** The simulation's seed and configuration as {@code truth.json} records them, in its order. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** Minimum one-way delay from {@code sender} to {@code receiver}, or null where they do not talk. */
    public Long minDelayNs(String sender, String receiver) {
        return minDelays.get(key(sender, receiver));
    }

    /**
     * The minimum delay from {@code sender} to {@code receiver} as an operator would know it: lowered by 0.1 %, so
     * that it holds on any clock running less than 1000 ppm fast or slow; 0 where they do not talk.
     */
    public long knownMinDelayNs(String sender, String receiver) {
        Long trueNs = minDelayNs(sender, receiver);
        return trueNs == null ? 0 : asKnown(trueNs);
    }

    /** A true minimum delay lowered by 0.1 %: a lower bound on it on any clock within 1000 ppm of true time. */
    public static long asKnown(long trueMinDelayNs) {
        return trueMinDelayNs - (trueMinDelayNs + 999) / 1000;
    }

    private static String key(String sender, String receiver) {
        return sender + ">" + receiver;
    }
}
