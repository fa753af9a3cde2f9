package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class WeightHeapTest {

    @Property(tries = 200)
    void maxIsTheLargestWeightHeld(@ForAll long seed) {
        Random random = new Random(seed);
        WeightHeap heap = new WeightHeap();
        Map<Integer, Double> truth = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            int e = 1 + random.nextInt(60);
            double w = random.nextInt(20);
            if (!truth.containsKey(e)) {
                heap.add(e, w);
                truth.put(e, w);
            } else if (random.nextBoolean()) {
                heap.remove(e);
                truth.remove(e);
            } else {
                heap.change(e, w);
                truth.put(e, w);
            }
            double max = truth.values().stream().mapToDouble(Double::doubleValue).max()
                    .orElse(Double.NEGATIVE_INFINITY);
            assertEquals(max, heap.max());
        }
    }
}
