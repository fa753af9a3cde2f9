package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class RegionPartitionerTest {

    @Test
    void regionsNumberedInARowSpreadEvenly() {
        int[] perPartition = new int[4];
        for (int r = 0; r < 16; r++) {
            perPartition[RegionPartitioner.partition(String.format("r%03d", r), 4)]++;
        }
        assertEquals("[4, 4, 4, 4]", java.util.Arrays.toString(perPartition));
        assertEquals(2, RegionPartitioner.partition("rack-14", 3));
        assertEquals(1, RegionPartitioner.partition("7", 2));
    }

    /** A name without a number, or with one of over 9 digits, goes where Kafka's default partitioner puts it. */
    @Property(tries = 300)
    void otherNamesGoWhereKafkaPutsThem(@ForAll @AlphaChars @StringLength(max = 12) String name,
            @ForAll @IntRange(min = 1, max = 64) int partitions) {
        for (String region : new String[] {name, name + "1234567890"}) {
            int kafka = BuiltInPartitioner.partitionForKey(region.getBytes(StandardCharsets.UTF_8), partitions);
            assertEquals(kafka, RegionPartitioner.partition(region, partitions), region);
            assertEquals(Optional.of(Set.of(kafka)),
                    new RegionPartitioner<>().partitions("t", region, null, partitions));
        }
    }
}
