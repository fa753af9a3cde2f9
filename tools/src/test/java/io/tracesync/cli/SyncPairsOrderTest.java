package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracesync.core.link.Scenarios;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@code sync-pairs} gives one answer for one set of pairs, whatever their order in the file. */
class SyncPairsOrderTest {

    /** Scenario pairs of the link a~b as rows: a-&gt;b is (send_a, recv_b), b-&gt;a is (recv_a, send_b). */
    private static String rows(List<long[]> pairs) {
        StringBuilder sb = new StringBuilder();
        for (long[] p : pairs) {
            sb.append(p[0] == 1 ? "a," + p[1] + ",b," + p[2] : "b," + p[2] + ",a," + p[1]).append('\n');
        }
        return sb.toString();
    }

    private static CliRun sync(List<long[]> pairs, String... options) throws IOException {
        Path file = Files.createTempFile("pairs", ".csv");
        try {
            Files.writeString(file, rows(pairs));
            List<String> args = new ArrayList<>(List.of("sync-pairs", "--pairs", file.toString()));
            args.addAll(List.of(options));
            CliRun r = CliRun.of(args.toArray(new String[0]));
            assertEquals(0, r.exit(), r.err());
            return r;
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void pairsAcrossAnEpochGridPointGiveOneAnswerInEitherOrder() throws IOException {
        List<long[]> pairs = Scenarios.acrossAGridPoint();
        List<long[]> reversed = new ArrayList<>(pairs);
        Collections.reverse(reversed);
        String json = sync(pairs, "--json").out();
        assertEquals(json, sync(reversed, "--json").out());
        assertEquals(sync(pairs).out(), sync(reversed).out());
        JsonNode link = new ObjectMapper().readTree(json).get("links").get(0);
        assertEquals("ACCURATE", link.get("quality").asText());
        assertEquals(200, link.get("pairs").asInt());
        assertEquals(0, link.get("stale_pairs").asInt());
    }

    @Property(tries = 30)
    void aShuffledFileGivesTheAnswerOfTheFileInTimeOrder(@ForAll long seed, @ForAll boolean wandering)
            throws IOException {
        // ~30 s of pairs with a 4 s horizon: a dozen epochs, and failures for the wandering clock
        List<long[]> pairs = fromZero(Scenarios.generate(wandering ? Scenarios.Shape.WANDERING
                : Scenarios.Shape.REALISTIC, seed, 300));
        pairs.sort(Comparator.comparingLong(p -> p[1]));
        assertTrue(pairs.get(pairs.size() - 1)[1] - pairs.get(0)[1] > 12_000_000_000L, "fewer than 3 horizons");
        String inOrder = sync(pairs, "--json", "--horizon", "4s").out();
        Collections.shuffle(pairs, new Random(seed));
        assertEquals(inOrder, sync(pairs, "--json", "--horizon", "4s").out());
    }

    /**
     * The scenario with each clock moved to start at 0: its offsets reach past ±2^62, where the link core works but
     * the files, like the stream, take only timestamps from 0 to 2^62.
     */
    private static List<long[]> fromZero(List<long[]> pairs) {
        long minA = pairs.stream().mapToLong(p -> p[1]).min().orElse(0);
        long minB = pairs.stream().mapToLong(p -> p[2]).min().orElse(0);
        return new ArrayList<>(pairs.stream().map(p -> new long[] {p[0], p[1] - minA, p[2] - minB}).toList());
    }
}
