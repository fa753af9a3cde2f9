package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentsTest {

    @Test
    void anXCrossesParallelsAndNeighboursDoNot() {
        double[] down = {0, 0, 10, 10};
        double[] up = {0, 10, 10, 0};
        assertTrue(Segments.cross(down, up));
        assertTrue(Segments.cross(up, down));
        assertFalse(Segments.cross(down, new double[] {0, 1, 10, 11}), "parallel");
        assertFalse(Segments.cross(down, new double[] {6, 4, 20, 0}), "short of it");
        assertFalse(Segments.cross(down, new double[] {5, 5, 10, 0}), "one ends on the other");
        assertFalse(Segments.cross(down, new double[] {10, 10, 20, 0}), "a shared end");
    }

    @Test
    void crossingsLeavesOutLinksOfOneNode() {
        double[] hub = {0, 0, 10, 10};
        assertEquals(List.of("0×2"), Segments.crossings(List.of(hub, new double[] {0, 0, 10, 0},
                new double[] {0, 10, 10, 0}, new double[] {10, 10, 0, 20})));
    }
}
