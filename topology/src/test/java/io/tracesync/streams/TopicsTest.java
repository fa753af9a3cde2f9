package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.Component;
import io.tracesync.avro.TreeLink;
import io.tracesync.avro.TreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** The output topics, and the largest record the application writes: a whole forest's snapshot. */
class TopicsTest {

    private final Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID()));
    private final Topics topics = new Topics(settings);

    @Test
    void aSixtyThousandNodeForestFitsWhereverItIsWritten() {
        int nodes = 60_000;
        List<TreeLink> edges = new ArrayList<>();
        for (int i = 1; i < nodes; i++) {
            edges.add(new TreeLink("node-" + (i - 1) / 2, "node-" + i, 1e-7));
        }
        TreeSnapshot forest = new TreeSnapshot(1L, 0L, List.of(new Component("node-0", nodes)), edges, List.of());
        int bytes = topics.treeSnapshot.serializer().serialize(topics.tree, forest).length;
        assertTrue(bytes > 1 << 20, bytes + " bytes: past Kafka's default limit of 1 MiB");
        assertTrue(bytes < Topics.MAX_RECORD_BYTES, bytes + " bytes");

        assertEquals(String.valueOf(Topics.MAX_RECORD_BYTES),
                settings.streamsProperties().getProperty("producer.max.request.size"), "the producers send it");
        NewTopic tree = topics.outputs().stream().filter(t -> t.name().equals(topics.tree)).findFirst().orElseThrow();
        assertEquals(String.valueOf(Topics.MAX_RECORD_BYTES), tree.configs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG),
                "sync.tree takes it");
        assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT, tree.configs().get(TopicConfig.CLEANUP_POLICY_CONFIG));
    }

    @Test
    void aTracesPatternThatMatchesTheApplicationsOwnTopicsIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> new Topics(settings.with("traces.pattern",
                "sync\\..+")));
        assertTrue(e.getMessage().contains("matches the application's own topic sync.factors"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> new Topics(settings.with("application.id", "run1")
                .with("dlq.topic", "x").with("traces.pattern", "run1.*")));
        assertTrue(e.getMessage().contains("run1-segments-repartition"), e.getMessage());
        assertTrue(new Topics(settings.with("traces.pattern", "traces-.+")).traces.includes("traces-7"));
    }
}
