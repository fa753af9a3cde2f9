package io.tracesync.streams;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Resets an application so that it reprocesses its trace topics from the beginning, as Kafka's
 * {@code kafka-streams-application-reset} does for input and internal topics (without adding its
 * {@code kafka-tools} dependencies): the group (the {@code application.id}) must have no member (a stopped
 * instance's membership is waited out); the committed
 * offsets of every trace topic partition go to the earliest offset; the group's other committed offsets are
 * deleted, and so is every internal topic of tracesync's topology that exists (changelogs and repartition topics,
 * {@link InternalTopics#all}, exact names only). The factor history's records are deleted (the
 * application publishes its history anew, from version 1, and a history holding both runs' versions would mix
 * them); the other output topics are left as they are (their latest values are replaced). The local state is the
 * caller's to wipe ({@link TracesyncApp#startClean}).
 */
public final class ApplicationReset {

    /**
     * What was reset: the trace topics, their partitions, the internal topics deleted and the records deleted from
     * the factor history.
     */
    public record Result(List<String> inputs, int partitions, List<String> deletedTopics, long historyRecords) {
    }

    private ApplicationReset() {
    }

    public static Result reset(Admin admin, Settings settings) throws ExecutionException, InterruptedException {
        ApplicationGroup group = ApplicationGroup.of(admin, settings);
        requireInactive(group, settings);
        List<String> inputs = new InputLag(admin, settings).topics();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        if (!inputs.isEmpty()) {
            admin.describeTopics(inputs).allTopicNames().get().values().forEach(d -> d.partitions()
                    .forEach(p -> earliest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.earliest())));
        }
        Map<TopicPartition, OffsetAndMetadata> toEarliest = admin.listOffsets(earliest).all().get().entrySet()
                .stream().collect(Collectors.toMap(Map.Entry::getKey,
                        e -> new OffsetAndMetadata(e.getValue().offset())));
        if (!toEarliest.isEmpty()) {
            group.commit(toEarliest);
        }
        Set<TopicPartition> others = group.committed().keySet().stream().filter(tp -> !toEarliest.containsKey(tp))
                .collect(Collectors.toSet());
        if (!others.isEmpty()) {
            group.forget(others);
        }
        Set<String> existing = admin.listTopics().names().get();
        List<String> internal = InternalTopics.all(group.id()).stream().filter(existing::contains).toList();
        if (!internal.isEmpty()) {
            admin.deleteTopics(internal).all().get();
            awaitGone(admin, internal);
        }
        return new Result(inputs, toEarliest.size(), internal, truncate(admin,
                new Topics(settings).factorHistory, existing));
    }

    /** Deletes every record of a topic, if it exists; how many there were. */
    private static long truncate(Admin admin, String topic, Set<String> existing)
            throws ExecutionException, InterruptedException {
        if (!existing.contains(topic)) {
            return 0;
        }
        Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                .forEach(p -> partitions.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, OffsetSpec> starts = new HashMap<>();
        partitions.keySet().forEach(tp -> starts.put(tp, OffsetSpec.earliest()));
        Map<TopicPartition, Long> start = new HashMap<>();
        admin.listOffsets(starts).all().get().forEach((tp, o) -> start.put(tp, o.offset()));
        Map<TopicPartition, RecordsToDelete> ends = new HashMap<>();
        long records = 0;
        for (var e : admin.listOffsets(partitions).all().get().entrySet()) {
            ends.put(e.getKey(), RecordsToDelete.beforeOffset(e.getValue().offset()));
            records += e.getValue().offset() - start.get(e.getKey());
        }
        admin.deleteRecords(ends).all().get();
        return records;
    }

    /** Until the deleted topics are gone from the metadata, so the application can create them anew. */
    private static void awaitGone(Admin admin, List<String> deleted) throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            Set<String> existing = admin.listTopics().names().get();
            if (deleted.stream().noneMatch(existing::contains)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("internal topics " + deleted + " still exist 60 s after deletion");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Waits until the group has no member, at most the members' session timeout and five seconds: a Kafka Streams
     * instance does not leave its group when it closes, so a stopped one stays a member until its session expires.
     * A member still there then is a running instance.
     */
    private static void requireInactive(ApplicationGroup group, Settings settings)
            throws ExecutionException, InterruptedException {
        long wait = group.sessionTimeoutMs(settings) + 5_000;
        long deadline = System.nanoTime() + wait * 1_000_000;
        while (true) {
            int members = group.describe().members().size();
            if (members == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("application " + group.id() + " is running (" + members
                        + " member(s) in its group after " + wait / 1000 + " s): stop every instance before "
                        + "resetting it");
            }
            Thread.sleep(500);
        }
    }

}
