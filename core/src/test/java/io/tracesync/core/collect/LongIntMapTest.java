package io.tracesync.core.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class LongIntMapTest {

    /** Random puts and removals over a small key space (long probe runs, many backward shifts) agree with HashMap. */
    @Property(tries = 200)
    void behavesLikeAHashMap(@ForAll long seed, @ForAll @IntRange(min = 1, max = 300) int keySpace) {
        Random random = new Random(seed);
        LongIntMap map = new LongIntMap();
        Map<Long, Integer> truth = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            long key = random.nextInt(keySpace) * 0x1_0000_0001L;
            if (random.nextInt(3) == 0) {
                map.remove(key);
                truth.remove(key);
            } else {
                int value = 1 + random.nextInt(1000);
                map.put(key, value);
                truth.put(key, value);
            }
            long probe = random.nextInt(keySpace) * 0x1_0000_0001L;
            assertEquals(truth.getOrDefault(probe, 0), map.get(probe));
            assertEquals(truth.size(), map.size());
        }
        for (Map.Entry<Long, Integer> e : truth.entrySet()) {
            assertEquals(e.getValue(), map.get(e.getKey()));
        }
    }
}
