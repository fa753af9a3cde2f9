package io.tracesync.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The transactions that hold back a partition's last stable offset: where {@code read_committed} readers (Kafka
 * Streams under {@code exactly_once_v2}) stop. A transaction that stays open after its producer's
 * {@code transaction.timeout.ms} is a hanging one (docs/STREAMS.md, Several instances under faults): named when a
 * fault run stalls.
 */
final class OpenTransactions {
    private OpenTransactions() {
    }

    /**
     * One line per partition of the topics whose names contain {@code name} whose last stable offset lies below its
     * end, with the transactions open there; empty when none.
     */
    static List<String> holdingBack(Admin admin, String name)
            throws ExecutionException, InterruptedException {
        List<String> topics = admin.listTopics().names().get().stream().filter(t -> t.contains(name)).sorted()
                .toList();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions().forEach(
                p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = offsets(admin, latest, IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> stable = offsets(admin, latest, IsolationLevel.READ_COMMITTED);
        List<TopicPartition> held = ends.keySet().stream().filter(tp -> stable.get(tp) < ends.get(tp))
                .sorted(Comparator.comparing(TopicPartition::toString)).toList();
        List<String> lines = new ArrayList<>();
        if (held.isEmpty()) {
            return lines;
        }
        var producers = admin.describeProducers(held).all().get();
        for (TopicPartition tp : held) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "%s: last stable offset %,d, %,d records below its end", tp, stable.get(tp),
                    ends.get(tp) - stable.get(tp)));
            for (ProducerState p : producers.get(tp).activeProducers()) {
                if (p.currentTransactionStartOffset().isPresent()) {
                    line.append(String.format(Locale.ROOT, "; a transaction of producer %d (epoch %d) open from "
                            + "offset %,d", p.producerId(), p.producerEpoch(),
                            p.currentTransactionStartOffset().getAsLong()));
                }
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, Map<TopicPartition, OffsetSpec> specs,
            IsolationLevel isolation) throws ExecutionException, InterruptedException {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all().get()
                .forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }
}
