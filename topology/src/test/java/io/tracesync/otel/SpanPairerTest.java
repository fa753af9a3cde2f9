package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanPairerTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    private final List<RpcExchange> out = new ArrayList<>();

    private static RpcSpan client(String id, String host, long start, long end) {
        return new RpcSpan(TRACE, id, "", RpcSpan.Kind.CLIENT, host, start, end);
    }

    private static RpcSpan server(String id, String parent, String host, long start, long end) {
        return new RpcSpan(TRACE, id, parent, RpcSpan.Kind.SERVER, host, start, end);
    }

    @Test
    void aClientAndItsServerChildPairInEitherOrder() {
        SpanPairer p = new SpanPairer(100, out::add);
        RpcSpan c1 = client("00000000000000a1", "a", 100, 900);
        RpcSpan s1 = server("00000000000000b1", "00000000000000a1", "b", 5_300, 5_600);
        RpcSpan c2 = client("00000000000000a2", "a", 1_000, 1_900);
        RpcSpan s2 = server("00000000000000b2", "00000000000000a2", "c", 7_300, 7_600);
        p.accept(c1);
        p.accept(s1);
        p.accept(s2);
        p.accept(c2);
        assertEquals(List.of(new RpcExchange(c1, s1), new RpcExchange(c2, s2)), out);
        RpcExchange x = out.get(0);
        assertEquals(new io.tracesync.core.link.MatchedPair("a", 100, "b", 5_300), x.request());
        assertEquals(new io.tracesync.core.link.MatchedPair("b", 5_600, "a", 900), x.response());
        assertEquals(new SpanPairer.Counts(4, 2, 0, 0, 0, 0, 0), p.counts());
    }

    @Test
    void sameHostPairsRootsAndDuplicatesAreCountedNotPaired() {
        SpanPairer p = new SpanPairer(100, out::add);
        p.accept(client("00000000000000a1", "a", 100, 900));
        p.accept(client("00000000000000a1", "a", 100, 900));
        p.accept(server("00000000000000b1", "00000000000000a1", "a", 300, 600));
        p.accept(server("00000000000000b2", "", "b", 300, 600));
        assertEquals(List.of(), out);
        assertEquals(new SpanPairer.Counts(4, 0, 1, 1, 1, 0, 0), p.counts());
    }

    @Test
    void aMissingHalfWaitsOneMoreWindowThenIsDropped() {
        SpanPairer p = new SpanPairer(2, out::add);
        RpcSpan lonely = client("00000000000000a1", "a", 100, 900);
        p.accept(lonely);
        p.accept(client("00000000000000a2", "a", 100, 900));
        p.accept(client("00000000000000a3", "a", 100, 900));
        RpcSpan late = server("00000000000000b3", "00000000000000a3", "b", 400, 500);
        p.accept(late);
        assertEquals(List.of(new RpcExchange(client("00000000000000a3", "a", 100, 900), late)), out);
        assertEquals(2, p.counts().dropped(), "a1 and a2 outlived their generation and the next");
        p.accept(server("00000000000000b1", "00000000000000a1", "b", 400, 500));
        p.finish();
        assertEquals(new SpanPairer.Counts(5, 1, 0, 0, 0, 3, 0), p.counts());
    }
}
