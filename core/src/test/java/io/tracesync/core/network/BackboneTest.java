package io.tracesync.core.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackboneTest {

    private static LinkEstimate link(String a, String b, double accuracy) {
        return LinkEstimate.accurate(new LinkKey(a, b), ClockMap.IDENTITY, accuracy, 1 - accuracy / 2,
                1 + accuracy / 2, 0, 1_000_000, 1_000_000);
    }

    private static NodeFactor regionFactor(String node, String reference, long boundPs) {
        return new NodeFactor(node, reference, new Factor(ClockMap.IDENTITY, boundPs, boundPs));
    }

    /** An end is tied to its hub by its region factor, and untied with an unbounded one or when no longer an end. */
    @Test
    void endsAreTiedToTheirHubsWhileTheyEndALinkHeld() {
        Backbone backbone = new Backbone(NetworkOptions.DEFAULT, 0);
        backbone.update(link("a1", "b1", 1e-6), "a", "b");
        assertEquals(Set.of("a1", "b1"), backbone.ends());
        backbone.tie("a1", regionFactor("a1", "a0", 5_000));
        backbone.tie("b1", regionFactor("b1", "b1", 0));
        assertEquals(2 + 1, backbone.links(), "the link and two ties");
        Map<String, AnchoredFactor> answer = backbone.evaluate();
        assertEquals(Set.of("a1", "b1"), answer.keySet(), "the ends answer, the hubs do not");
        assertEquals(answer.get("a1").reference(), answer.get("b1").reference(), "one component");
        assertTrue(Set.of("a0", "a1", "b1").contains(answer.get("a1").reference()), "a hub answers by its node's name: "
                + answer);
        backbone.tie("a1", new NodeFactor("a1", "a0", new Factor(ClockMap.IDENTITY, LinkEstimate.UNBOUNDED, 0)));
        assertEquals(2, backbone.links(), "an unbounded region factor unties");
        backbone.tie("x", regionFactor("x", "a0", 5));
        assertEquals(2, backbone.links(), "a node that ends no link is not tied");
        backbone.update(link("b2", "x", 1e-6), "b", "a");
        assertEquals(4, backbone.links(), "its factor ties it once it ends a link");
        backbone.remove(new LinkKey("b2", "x"), "b", "a");
        backbone.remove(new LinkKey("a1", "b1"), "a", "b");
        assertEquals(Set.of(), backbone.ends());
        assertEquals(0, backbone.links(), "the ends' ties leave with the last link they end");
    }

    /** Per pair of regions the lightest links are held; one that gets lighter takes the place of the heaviest. */
    @Test
    void perPairTheLightestLinksAreHeld() {
        Backbone backbone = new Backbone(NetworkOptions.DEFAULT, 2);
        backbone.update(link("a1", "b1", 3e-6), "a", "b");
        backbone.update(link("a2", "b2", 2e-6), "a", "b");
        backbone.update(link("a3", "b3", 1e-6), "a", "b");
        backbone.update(link("a1", "c1", 9e-6), "a", "c");
        assertEquals(Set.of(new LinkKey("a2", "b2"), new LinkKey("a3", "b3"), new LinkKey("a1", "c1")),
                backbone.held());
        backbone.update(link("a1", "b1", 0.5e-6), "a", "b");
        assertEquals(Set.of(new LinkKey("a1", "b1"), new LinkKey("a3", "b3"), new LinkKey("a1", "c1")),
                backbone.held());
        assertFalse(backbone.ends().contains("a2"));
        assertTrue(Backbone.isHub(Backbone.HUB + "a1") && Backbone.node(Backbone.HUB + "a1").equals("a1"));
    }
}
