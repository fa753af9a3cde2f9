package io.tracesync.streams;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.NodeFactor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code sync.factors} (or the factor history) as consumers see it: committed records only, the latest per
 * node.
 */
public final class FactorsTopic {

    private FactorsTopic() {
    }

    /** Every committed factor record, in partition order, from the beginning to the current end. */
    public static List<ConsumerRecord<String, SyncFactor>> readAll(Settings settings, Duration timeout) {
        return readAll(settings, new Topics(settings).factors, timeout);
    }

    /**
     * Every committed record of a topic of factor records ({@code sync.factors} or the factor history), in
     * partition order, from the beginning to the current end.
     */
    public static List<ConsumerRecord<String, SyncFactor>> readAll(Settings settings, String topic,
            Duration timeout) {
        return CommittedRecords.readAll(settings, topic, new StringDeserializer(),
                new Topics(settings).syncFactor.deserializer(), timeout);
    }

    /**
     * The first difference between expected answers and the factor records of every node (the reference and the
     * factor as a reader decodes it), or null when every node has its expected one and no other node has one.
     */
    public static String differences(Map<String, NodeFactor> expected, Map<String, SyncFactor> got) {
        if (!expected.keySet().equals(got.keySet())) {
            return "nodes " + got.keySet() + " instead of " + expected.keySet();
        }
        for (NodeFactor e : expected.values()) {
            SyncFactor g = got.get(e.node());
            if (!e.reference().equals(g.getReference()) || !e.factor().equals(PublishedFactor.of(g).factor())) {
                return e.node() + ": " + g + " instead of " + e;
            }
        }
        return null;
    }

    /** The latest committed factor of every node. */
    public static Map<String, SyncFactor> latest(Settings settings, Duration timeout) {
        Map<String, SyncFactor> out = new TreeMap<>();
        for (ConsumerRecord<String, SyncFactor> r : readAll(settings, timeout)) {
            out.put(r.key(), r.value());
        }
        return out;
    }
}
