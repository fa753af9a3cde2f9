package io.tracesync.bench;

import io.tracesync.avro.Direction;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.Quality;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.CommittedRecords;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.config.TracesyncConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * When each latency probe becomes visible to a read_committed reader at each hop of the topology: its last receive
 * in the {@code segments} repartition topic (the check step committed), its fourth pair in {@code pairs} (the
 * matcher committed), its link's first ACCURATE summary in {@code network} (the link step committed), and its
 * second node's first factor in {@code sync.factors} (the network step emitted and committed). Inputs partitioned
 * by segment have no {@code segments} hop.
 */
final class ProbeHops implements Runnable {

    static final List<String> HOPS = List.of("segments", "pairs", "link summary", "factor");
    private static final int PAIRS_PER_PROBE = 4;

    private final Settings settings;
    private final Topics topics;
    private final String segments;
    private final String pairs;
    private final String network;
    private final AtomicBoolean watching = new AtomicBoolean(true);
    /** Per probe ("probe-7"): the nanoTime each hop was first seen (0: not yet), and the pairs seen. */
    private final Map<String, long[]> seen = new ConcurrentHashMap<>();

    ProbeHops(Settings settings) {
        this.settings = settings;
        this.topics = new Topics(settings);
        String app = settings.get("application.id");
        this.segments = InternalTopics.repartition(app, InternalTopics.SEGMENTS);
        this.pairs = InternalTopics.repartition(app, InternalTopics.PAIRS);
        // with links.with.network the summaries reach the network in the same task: sync.links shows them then
        this.network = settings.bool(TracesyncConfig.LINKS_WITH_NETWORK_CONFIG) ? topics.links
                : InternalTopics.networkTaskInput(settings);
    }

    void stop() {
        watching.set(false);
    }

    /** The times probe {@code name} was seen at each hop, 0 where it was not. */
    long[] times(String name) {
        long[] t = seen.get(name);
        return t == null ? new long[HOPS.size()] : Arrays.copyOf(t, HOPS.size());
    }

    @Override
    public void run() {
        Properties p = CommittedRecords.readerProperties(settings);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            List<String> watched = settings.bool(TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG)
                    ? List.of(pairs, network, topics.factors) : List.of(segments, pairs, network, topics.factors);
            for (String topic : watched) {
                c.partitionsFor(topic, Duration.ofMinutes(1)).forEach(i -> parts.add(
                        new TopicPartition(topic, i.partition())));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            while (watching.get()) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(20))) {
                    see(r, System.nanoTime());
                }
            }
        }
    }

    private void see(ConsumerRecord<byte[], byte[]> r, long now) {
        String topic = r.topic();
        if (topic.equals(segments)) {
            TraceEvent e = topics.traceEvent.deserializer().deserialize(topic, r.value());
            if (e.getNode().startsWith("probe-") && e.getDirection() == Direction.RECV
                    && e.getSeq() % PAIRS_PER_PROBE == PAIRS_PER_PROBE - 1) {
                mark(probe(e.getNode()), 0, now);
            }
        } else if (topic.equals(pairs)) {
            for (MatchedPair m : topics.matchedPairs.deserializer().deserialize(topic, r.value()).getPairs()) {
                if (m.getSender().startsWith("probe-")) {
                    long[] t = seen.computeIfAbsent(probe(m.getSender()), k -> new long[HOPS.size() + 1]);
                    if (++t[HOPS.size()] == PAIRS_PER_PROBE) {
                        mark(probe(m.getSender()), 1, now);
                    }
                }
            }
        } else if (topic.equals(network)) {
            LinkSummary s = topics.linkSummary.deserializer().deserialize(topic, r.value());
            if (s.getA().startsWith("probe-") && s.getQuality() == Quality.ACCURATE) {
                mark(probe(s.getA()), 2, now);
            }
        } else {
            String node = new String(r.key(), StandardCharsets.UTF_8);
            if (node.startsWith("probe-") && node.endsWith("-b")) {
                mark(probe(node), 3, now);
            }
        }
    }

    private void mark(String probe, int hop, long now) {
        long[] t = seen.computeIfAbsent(probe, k -> new long[HOPS.size() + 1]);
        if (t[hop] == 0) {
            t[hop] = now;
        }
    }

    /** "probe-7" of "probe-7-a" or "probe-7-b". */
    private static String probe(String node) {
        return node.substring(0, node.length() - 2);
    }
}
