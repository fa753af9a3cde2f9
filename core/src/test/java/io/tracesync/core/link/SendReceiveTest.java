package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MatchedPairTest {

    @Test
    void linkOrdersNodesByIdAndPointsFollowTheDirection() {
        SendReceive ab = new SendReceive("alpha", 100, "bravo", 250);
        SendReceive ba = new SendReceive("bravo", 300, "alpha", 180);
        assertEquals(new LinkKey("alpha", "bravo"), ab.link());
        assertEquals(ab.link(), ba.link());
        ConvexHullLink link = new ConvexHullLink(LinkOptions.NO_HORIZON);
        ab.applyTo(link);
        ba.applyTo(link);
        // a->b lies at (send_a, recv_b) = (100, 250); b->a at (recv_a, send_b) = (180, 300).
        assertEquals(Long.valueOf(250), Long.valueOf(link.windows()[0].older().upper.y(0)));
        assertEquals(Long.valueOf(180), Long.valueOf(link.windows()[0].older().lower.x(0)));
    }

    @Test
    void aNodeCannotSendToItself() {
        assertThrows(IllegalArgumentException.class, () -> new SendReceive("n", 1, "n", 2));
        assertThrows(IllegalArgumentException.class, () -> LinkKey.between("n", "n"));
        assertThrows(IllegalArgumentException.class, () -> new LinkKey("b", "a"));
        assertThrows(IllegalArgumentException.class, () -> new SendReceive("", 1, "n", 2));
    }
}
