package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.LinkSummary;
import io.tracesync.core.link.LinkKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class PendingSummariesTest {

    /**
     * Links 1..9 by id, 10..14 without one: every drain gives each link's last summary once, in the order of the
     * links' first, as a map keyed by link in insertion order would.
     */
    @Property(tries = 300)
    void theLastOfEachLinkInTheOrderOfItsFirst(
            @ForAll @Size(max = 200) List<@IntRange(min = 1, max = 14) Integer> arrivals,
            @ForAll @Size(max = 5) List<@IntRange(max = 200) Integer> drainsAfter) {
        PendingSummaries pending = new PendingSummaries();
        Map<LinkKey, LinkSummary> model = new LinkedHashMap<>();
        for (int i = 0; i < arrivals.size(); i++) {
            int link = arrivals.get(i);
            LinkKey key = new LinkKey("a" + link, "b" + link);
            LinkSummary s = new LinkSummary();
            s.setA(key.a());
            s.setB(key.b());
            s.setLatestNs((long) i);
            boolean first = !model.containsKey(key);
            model.put(key, s);
            assertEquals(first, pending.add(link < 10 ? link : 0, key, s), "a first summary of its link");
            assertEquals(model.size(), pending.links());
            if (drainsAfter.contains(i)) {
                assertEquals(List.copyOf(model.values()), drained(pending));
                model.clear();
            }
        }
        assertEquals(List.copyOf(model.values()), drained(pending));
        assertEquals(List.of(), drained(pending), "nothing twice");
    }

    private static List<LinkSummary> drained(PendingSummaries pending) {
        List<LinkSummary> out = new ArrayList<>();
        pending.drain((s, id) -> {
            int link = Integer.parseInt(s.getA().substring(1));
            assertEquals(link < 10 ? link : 0, id, "the summary's link's id");
            out.add(s);
        });
        assertEquals(0, pending.links());
        return out;
    }
}
