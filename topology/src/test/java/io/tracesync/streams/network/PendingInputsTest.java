package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.NetworkInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class PendingInputsTest {

    /**
     * Node names "Aa" and "BB" hash alike (31·65 + 97 = 31·66 + 66), so links 0–13 meet in the table's probes as
     * well as by chance: every drain gives each link's last summary once, in the order of the links' first, as a
     * map keyed by link in insertion order would.
     */
    @Property(tries = 300)
    void theLastOfEachLinkInTheOrderOfItsFirst(
            @ForAll @Size(max = 300) List<@IntRange(max = 13) Integer> arrivals,
            @ForAll @Size(max = 5) List<@IntRange(max = 300) Integer> drainsAfter) {
        PendingInputs pending = new PendingInputs();
        Map<String, RegionInput> model = new LinkedHashMap<>();
        for (int i = 0; i < arrivals.size(); i++) {
            int link = arrivals.get(i);
            String a = (link % 2 == 0 ? "Aa" : "BB") + link / 2;
            RegionInput in = input(a, "n" + link / 2, i);
            boolean first = !model.containsKey(a);
            model.put(a, in);
            assertEquals(first, pending.add(in), "a first summary of its link");
            assertEquals(model.size(), pending.size());
            if (drainsAfter.contains(i)) {
                assertEquals(List.copyOf(model.values()), drained(pending));
                model.clear();
            }
        }
        assertEquals(List.copyOf(model.values()), drained(pending));
        assertEquals(List.of(), drained(pending), "nothing twice");
    }

    /** A summary's record as written, its names where {@link RegionInputSerde} finds them; read, it says so. */
    private static RegionInput input(String a, String b, long latestNs) {
        byte[] an = a.getBytes(StandardCharsets.UTF_8);
        byte[] bn = b.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[3 + an.length + bn.length];
        bytes[1] = (byte) (2 * an.length);
        System.arraycopy(an, 0, bytes, 2, an.length);
        bytes[2 + an.length] = (byte) (2 * bn.length);
        System.arraycopy(bn, 0, bytes, 3 + an.length, bn.length);
        LinkSummary s = new LinkSummary();
        s.setA(a);
        s.setB(b);
        s.setLatestNs(latestNs);
        return RegionInput.summary(bytes, x -> new NetworkInput(s, null), 2, 2 + an.length, 3 + an.length,
                bytes.length);
    }

    private static List<RegionInput> drained(PendingInputs pending) {
        List<RegionInput> out = new ArrayList<>();
        pending.drain(out::add);
        assertEquals(0, pending.size());
        return out;
    }
}
