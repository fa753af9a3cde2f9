package io.tracesync.streams;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How far an application is behind on its trace topics: per partition, the latest offset minus the offset its
 * consumer group (the {@code application.id}) has committed, none committed counting from the earliest offset.
 * The trace topics are written without transactions, so a committed offset reaches the latest one exactly when
 * every record is processed.
 */
public final class InputLag {

    private final Admin admin;
    private final String group;
    private final Topics.Input inputs;

    public InputLag(Admin admin, Settings settings) {
        this.admin = admin;
        this.group = settings.get("application.id");
        this.inputs = new Topics(settings).traces;
    }

    /** The trace topics now: those the application would read. */
    public List<String> topics() throws ExecutionException, InterruptedException {
        return admin.listTopics().names().get().stream().filter(inputs::includes).sorted().toList();
    }

    /** Records of the trace topics not yet processed. */
    public long records() throws ExecutionException, InterruptedException {
        List<String> topics = topics();
        if (topics.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions().forEach(p -> {
            TopicPartition tp = new TopicPartition(d.name(), p.partition());
            latest.put(tp, OffsetSpec.latest());
            earliest.put(tp, OffsetSpec.earliest());
        }));
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        var ends = admin.listOffsets(latest).all().get();
        var starts = admin.listOffsets(earliest).all().get();
        long lag = 0;
        for (TopicPartition tp : latest.keySet()) {
            OffsetAndMetadata c = committed.get(tp);
            long from = c == null ? starts.get(tp).offset() : Math.max(c.offset(), starts.get(tp).offset());
            lag += Math.max(0, ends.get(tp).offset() - from);
        }
        return lag;
    }
}
