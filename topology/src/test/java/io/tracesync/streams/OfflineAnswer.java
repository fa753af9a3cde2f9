package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.OfflineSync;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TopologyTestDriver;

/** The test driver's latest factors must be what {@code tracesync sync-pairs} computes from the same pairs. */
final class OfflineAnswer {

    private OfflineAnswer() {
    }

    static void assertStreamed(TopologyTestDriver driver, Topics topics, Settings settings, List<SendReceive> pairs) {
        Map<String, SyncFactor> streamed = driver.createOutputTopic(topics.factors, new StringDeserializer(),
                topics.syncFactor.deserializer()).readKeyValuesToMap();
        Map<String, NodeFactor> offline = OfflineSync.factors(pairs, settings.linkOptions(), settings.networkOptions());
        assertEquals(offline.keySet(), streamed.keySet());
        offline.forEach((node, f) -> assertEquals(f.factor(), PublishedFactor.of(streamed.get(node)).factor(), node));
    }
}
