package io.tracesync.streams.health;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * How far an instance holds copies of the application's state: its active and standby tasks, and the largest lag,
 * in changelog records, of one of its store partitions behind the changelog's end. Summed over all instances, the
 * standby tasks reach the stateful active tasks times {@code num.standby.replicas} once every standby is placed; a
 * standby within {@code acceptable.recovery.lag} is one Kafka Streams counts as caught up, so that its instance
 * takes the task over without a long restore.
 *
 * @param maxLag the largest lag, or -1 when unknown (not RUNNING or REBALANCING, or the end offsets not fetched)
 */
public record Replication(int activeTasks, int standbyTasks, long maxLag) {

    /** What {@code streams} holds now; asks the brokers for the changelogs' end offsets. */
    public static Replication of(KafkaStreams streams) {
        int active = 0;
        int standby = 0;
        for (ThreadMetadata t : streams.metadataForLocalThreads()) {
            active += t.activeTasks().size();
            standby += t.standbyTasks().size();
        }
        return new Replication(active, standby, maxLag(streams));
    }

    private static long maxLag(KafkaStreams streams) {
        try {
            return streams.allLocalStorePartitionLags().values().stream().flatMap(p -> p.values().stream())
                    .mapToLong(LagInfo::offsetLag).max().orElse(0);
        } catch (IllegalStateException | StreamsException e) {
            return -1;
        }
    }
}
