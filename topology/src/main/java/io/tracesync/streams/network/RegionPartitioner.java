package io.tracesync.streams.network;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * The partition of the regions' topics (the {@code regions} repartition, {@code <application id>-backbone-factors})
 * a region's records go to, keyed by the region's name: a name ending in a number n to n modulo the partitions, so
 * that regions numbered in a row spread evenly (16 regions on 4 partitions, 4 each, where Kafka's hash of the names
 * r000…r015 gives 5, 3, 3 and 5); any other name where Kafka's default partitioner puts its UTF-8 bytes.
 */
public final class RegionPartitioner<V> implements StreamPartitioner<String, V> {

    /** Digits at most in the number: a longer one is hashed like a name. */
    private static final int MAX_DIGITS = 9;

    @Override
    public Optional<Set<Integer>> partitions(String topic, String region, V value, Headers headers, int partitions) {
        return Optional.of(Set.of(partition(region, partitions)));
    }

    /** The form without headers, still abstract in Kafka 4.4 (to be removed with 5.0): the same partition. */
    @Override
    @SuppressWarnings("removal")
    public Optional<Set<Integer>> partitions(String topic, String region, V value, int partitions) {
        return partitions(topic, region, value, null, partitions);
    }

    /** The partition of {@code region} among {@code partitions}. */
    public static int partition(String region, int partitions) {
        int end = region.length();
        int start = end;
        while (start > 0 && region.charAt(start - 1) >= '0' && region.charAt(start - 1) <= '9') {
            start--;
        }
        if (start < end && end - start <= MAX_DIGITS) {
            return Integer.parseInt(region, start, end, 10) % partitions;
        }
        return Utils.toPositive(Utils.murmur2(region.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
