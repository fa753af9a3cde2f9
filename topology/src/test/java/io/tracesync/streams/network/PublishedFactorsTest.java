package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PublishedFactorsTest {

    private static SyncFactor record(String node, Long up, Long down, long version) {
        return SyncFactor.newBuilder().setNode(node).setComponent("r").setReference("r")
                .setMap(new ClockMap(1.0, 0.0, 0.0, 0.0)).setUpPs(up).setDownPs(down).setAnchorNs(up == null ? null : 0L)
                .setValidFromMs(0).setVersion(version).build();
    }

    @Test
    void theWidestBoundFollowsEveryNodesLatestRecord() {
        PublishedFactors published = new PublishedFactors();
        Map<String, Long> latest = new HashMap<>();
        Random random = new Random(5);
        assertEquals(-1, published.widest());
        for (int i = 0; i < 2_000; i++) {
            String node = "n" + random.nextInt(12);
            boolean bounded = random.nextInt(5) > 0;
            long up = random.nextInt(1_000);
            long down = random.nextInt(1_000);
            published.put(record(node, bounded ? up : null, bounded ? down : null, i));
            latest.put(node, bounded ? Math.max(up, down) : -1);
            assertEquals(latest.values().stream().mapToLong(Long::longValue).max().orElse(-1), published.widest());
            assertEquals(i, published.get(node).version());
            assertEquals("r", published.get(node).reference());
        }
        assertNull(published.get("m"));
        published.clear();
        assertEquals(-1, published.widest());
    }
}
