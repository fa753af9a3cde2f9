package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.link.SendReceive;
import org.junit.jupiter.api.Test;

class LinkEstimateTest {

    /**
     * Two a→b messages and one b→a between them bound the corridor on both sides, but its lines have slopes -2 and
     * 0.02: their bisector falls, so there is no increasing estimate yet and the link is INCOMPLETE. Found by the
     * simulator with wandering clocks and a short horizon; such a link must stay out of the forest, not fail it.
     */
    @Test
    void anAccurateCorridorWithoutAnIncreasingEstimateDoesNotTakePart() {
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        new SendReceive("a", 0, "b", 100).applyTo(link);
        new SendReceive("a", 100, "b", 1).applyTo(link);
        new SendReceive("b", 0, "a", 50).applyTo(link);
        assertNull(link.estimate());
        assertEquals(LinkQuality.INCOMPLETE, link.quality());

        LinkEstimate e = LinkEstimate.of(LinkKey.between("a", "b"), link);
        assertEquals(LinkQuality.INCOMPLETE, e.quality());
        assertEquals(Double.NaN, NetworkOptions.DEFAULT.weightOf(e));
        NetworkSync net = new NetworkSync(NetworkOptions.DEFAULT);
        net.update(e);
        assertEquals(0, net.tree().size());
    }
}
