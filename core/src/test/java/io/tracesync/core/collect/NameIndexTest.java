package io.tracesync.core.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class NameIndexTest {

    /** Random inserts and lookups (fresh, equal name instances; many collisions in small tables) agree with HashMap. */
    @Property(tries = 100)
    void behavesLikeAHashMap(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5000) int names) {
        Random random = new Random(seed);
        NameIndex index = new NameIndex();
        Map<String, Integer> truth = new HashMap<>();
        for (int i = 0; i < 3 * names; i++) {
            String name = "n" + random.nextInt(names);
            if (random.nextBoolean() && !truth.containsKey(name)) {
                index.put(name, truth.size() + 1);
                truth.put(name, truth.size() + 1);
            }
            String probe = new String("n" + random.nextInt(names));
            assertEquals(truth.getOrDefault(probe, 0), index.get(probe), probe);
        }
        assertEquals(truth.size(), index.size());
        String[] held = index.names();
        Arrays.sort(held);
        assertEquals(truth.keySet().stream().sorted().toList(), Arrays.asList(held));
    }

    /** Names of one hash code ("Aa" and "BB" hash alike): slots match on the hash and are told apart by the name. */
    @Property(tries = 20)
    void tellsApartNamesOfEqualHash(@ForAll long seed) {
        Random random = new Random(seed);
        NameIndex index = new NameIndex();
        Map<String, Integer> truth = new HashMap<>();
        for (int i = 0; i < 500; i++) {
            StringBuilder name = new StringBuilder();
            for (int k = 0; k < 8; k++) {
                name.append(random.nextBoolean() ? "Aa" : "BB");
            }
            String probe = name.toString();
            if (random.nextBoolean() && !truth.containsKey(probe)) {
                index.put(probe, truth.size() + 1);
                truth.put(probe, truth.size() + 1);
            }
            assertEquals(truth.getOrDefault(probe, 0), index.get(new String(probe)), probe);
        }
    }
}
