package io.tracesync.bench;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.network.FactorHistoryStore;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * {@code /convert}'s work on a large factor history: the application's history store (RocksDB, keyed by node and
 * anchor: {@link FactorHistoryStore}) filled with {@code nodes} × the versions of {@code hours} at one version per
 * {@code spacingS} of local time, then random conversions of times within each node's history — the two seeks for
 * the versions around t, the node's newest version (a third seek), and the conversion with them — timed one by one.
 */
final class HistoryQueries {

    record Config(int nodes, double hours, int spacingS, int queries, long seed) {
    }

    record Result(long versions, double fillSeconds, long storeBytes, long[] latenciesNs, long interpolated) {

        long percentileNs(double p) {
            return latenciesNs[(int) Math.min(latenciesNs.length - 1, Math.floor(p * latenciesNs.length))];
        }
    }

    private static final long T0 = 1_700_000_000_000_000_000L;

    private final Config config;

    HistoryQueries(Config config) {
        this.config = config;
    }

    Result run(LongConsumer filled) throws Exception {
        Path dir = Files.createTempDirectory("tracesync-bench-history");
        try {
            return run(dir, filled);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted((a, b) -> b.compareTo(a)).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    private Result run(Path dir, LongConsumer filled) throws Exception {
        Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID())));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-history");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(p, new TaskId(0, 0), dir.toFile());
        KeyValueStore<Bytes, SyncFactor> store = FactorHistoryStore.builder("network-factor-history",
                topics.syncFactor).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        try {
            int perNode = (int) Math.max(2, Math.round(config.hours() * 3600 / config.spacingS()));
            long spacingNs = config.spacingS() * 1_000_000_000L;
            long start = System.nanoTime();
            for (int n = 0; n < config.nodes(); n++) {
                List<KeyValue<Bytes, SyncFactor>> batch = new ArrayList<>(perNode);
                String node = "n" + n;
                for (int k = 1; k <= perNode; k++) {
                    SyncFactor f = version(node, k, T0 + k * spacingNs);
                    batch.add(KeyValue.pair(FactorHistoryStore.key(node, f.getAnchorNs()), f));
                }
                store.putAll(batch);
                filled.accept((long) (n + 1) * perNode);
            }
            store.flush();
            double fill = (System.nanoTime() - start) / 1e9;
            SplittableRandom r = new SplittableRandom(config.seed());
            long[] latencies = new long[config.queries()];
            long interpolated = 0;
            for (int q = 0; q < latencies.length; q++) {
                String node = "n" + r.nextInt(config.nodes());
                long t = T0 + spacingNs + r.nextLong((perNode - 1) * spacingNs);
                long begin = System.nanoTime();
                HistoricConversion c = convert(store, node, t);
                latencies[q] = System.nanoTime() - begin;
                interpolated += c.basis() == HistoricConversion.Basis.INTERPOLATED ? 1 : 0;
            }
            Arrays.sort(latencies);
            long bytes;
            try (Stream<Path> files = Files.walk(dir)) {
                bytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
            }
            return new Result((long) perNode * config.nodes(), fill, bytes, latencies, interpolated);
        } finally {
            store.close();
        }
    }

    /** As {@code /convert}: the versions around t and the node's newest, then the conversion with them. */
    private static HistoricConversion convert(KeyValueStore<Bytes, SyncFactor> store, String node, long t) {
        return NodeHistory.around(t,
                first(store.reverseRange(FactorHistoryStore.first(node), FactorHistoryStore.key(node, t))),
                first(store.range(FactorHistoryStore.key(node, t + 1), FactorHistoryStore.last(node))),
                first(store.reverseRange(FactorHistoryStore.first(node), FactorHistoryStore.last(node))));
    }

    private static FactorVersion first(KeyValueIterator<Bytes, SyncFactor> it) {
        try (it) {
            return it.hasNext() ? FactorHistoryStore.version(it.next().value) : null;
        }
    }

    /** A version as the application publishes them under the clock model: ±66 µs, slope ranges of 5 ppm. */
    private static SyncFactor version(String node, long number, long anchorNs) {
        return SyncFactor.newBuilder().setNode(node).setComponent("n0").setReference("n0")
                .setMap(new ClockMap(1.0000123456789, 1.2e-17, 123_456_789_012.125 + number, 1.1e-5))
                .setUpPs(66_123_456L).setDownPs(65_123_456L).setBoundNs(66_123.456).setAnchorNs(anchorNs)
                .setGrowthAbove(2.5e-6).setGrowthBelow(2.4e-6).setCurvature(2.00002e-17)
                .setEvaluatedAtNs(anchorNs + 123_456_789L).setMethod("all-links").setTreeUpPs(123_456_789L)
                .setTreeDownPs(123_456_789L).setValidFromMs(1_795_878_162_602L + number * 1000).setVersion(number)
                .build();
    }
}
