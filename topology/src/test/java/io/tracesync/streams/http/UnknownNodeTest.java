package io.tracesync.streams.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A node asked for without a factor: the name meant, found despite padding, case or one typo, else a sample. */
class UnknownNodeTest {

    private static final List<String> DEMO = IntStream.range(0, 20).mapToObj(i -> String.format("n%02d", i)).toList();

    @Test
    void aNumberWithoutItsPaddingMeansThePaddedName() {
        assertEquals("n03", UnknownNode.meant("n3", DEMO));
        assertEquals("n00", UnknownNode.meant("n0", DEMO));
        assertEquals("n10", UnknownNode.meant("N10", DEMO));
        assertEquals("n3", UnknownNode.meant("n03", List.of("n1", "n2", "n3")), "and the other way round");
        assertEquals("no factor for node n3; did you mean n03?", UnknownNode.message("n3", DEMO));
    }

    @Test
    void oneTypoAwayIsMeantOnlyWhenItIsTheOnlyOne() {
        assertEquals("host-b", UnknownNode.meant("host-v", List.of("host-a1", "host-b", "gateway")));
        assertEquals("gateway", UnknownNode.meant("gatway", List.of("host-a", "gateway")));
        assertNull(UnknownNode.meant("host-c", List.of("host-a", "host-b")), "two names one edit away");
        assertNull(UnknownNode.meant("n99", DEMO));
    }

    @Test
    void otherwiseTheAnswerShowsWhatTheNamesLookLike() {
        assertEquals("no factor for node x; nodes with one: n00, n01, n02, n03, n04, … (20 in all)",
                UnknownNode.message("x", DEMO));
        assertEquals("no factor for node x; nodes with one: a, b", UnknownNode.message("x", List.of("b", "a")));
        assertEquals("no factor for node x: no node has one yet", UnknownNode.message("x", List.of()));
    }
}
