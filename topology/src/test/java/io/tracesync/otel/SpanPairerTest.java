package io.tracesync.otel;

import io.tracesync.core.link.SendReceive;
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
        SpanPairer p = new SpanPairer(100, out::add, m -> { });
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
        assertEquals(new SendReceive("a", 100, "b", 5_300), x.request());
        assertEquals(new SendReceive("b", 5_600, "a", 900), x.response());
        assertEquals(new SpanPairer.Counts(4, 2, 0, 0, 0, 0, 0, 0), p.counts());
    }

    @Test
    void sameHostPairsRootsAndDuplicatesAreCountedNotPaired() {
        SpanPairer p = new SpanPairer(100, out::add, m -> { });
        p.accept(client("00000000000000a1", "a", 100, 900));
        p.accept(client("00000000000000a1", "a", 100, 900));
        p.accept(server("00000000000000b1", "00000000000000a1", "a", 300, 600));
        p.accept(server("00000000000000b2", "", "b", 300, 600));
        assertEquals(List.of(), out);
        assertEquals(new SpanPairer.Counts(4, 0, 0, 1, 1, 1, 0, 0), p.counts());
    }

    @Test
    void aMissingHalfWaitsOneMoreWindowThenIsDropped() {
        SpanPairer p = new SpanPairer(2, out::add, m -> { });
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
        assertEquals(new SpanPairer.Counts(5, 1, 0, 0, 0, 0, 3, 0), p.counts());
    }

    private static MessagingSpan producer(String trace, String id, String host, long start, long end) {
        return new MessagingSpan(trace, id, "", MessagingSpan.Kind.PRODUCER, host, start, end, List.of());
    }

    private static MessagingSpan consumer(String trace, String id, String parent, String host, long start, long end,
            SpanRef... links) {
        return new MessagingSpan(trace, id, parent, MessagingSpan.Kind.CONSUMER, host, start, end, List.of(links));
    }

    @Test
    void aProducerAndTheConsumersNamingItByParentOrLinkGiveOneMessageEachSentAtTheStartReceivedAtTheEnd() {
        List<MessageExchange> messages = new ArrayList<>();
        SpanPairer p = new SpanPairer(100, out::add, messages::add);
        String other = "0af7651916cd43dd8448eb211c80319c";
        MessagingSpan job = producer(TRACE, "00000000000000a1", "a", 1_000, 9_000);
        MessagingSpan processed = consumer(TRACE, "00000000000000b1", "00000000000000a1", "b", 4_000, 5_000);
        MessagingSpan polled = consumer(other, "00000000000000c1", "", "c", 500, 3_500,
                new SpanRef(TRACE, "00000000000000a1"));
        p.accept(processed); // before its producer
        p.accept(job);
        p.accept(polled); // fan-out: a second consumer, after the first was paired
        assertEquals(List.of(new MessageExchange(job, processed), new MessageExchange(job, polled)), messages);
        assertEquals(new SendReceive("a", 1_000, "b", 5_000), messages.get(0).message());
        assertEquals(new SendReceive("a", 1_000, "c", 3_500), messages.get(1).message());
        p.finish();
        assertEquals(new SpanPairer.Counts(3, 0, 2, 0, 0, 0, 0, 0), p.counts());
        assertEquals(List.of(), out);
    }

    @Test
    void aBatchConsumerLinkingSeveralProducersGivesAMessageFromEachAndLinksOutrankTheParent() {
        List<MessageExchange> messages = new ArrayList<>();
        SpanPairer p = new SpanPairer(100, out::add, messages::add);
        MessagingSpan first = producer(TRACE, "00000000000000a1", "a", 1_000, 2_000);
        MessagingSpan second = producer(TRACE, "00000000000000a2", "b", 1_500, 2_500);
        // its parent is the poll loop's span, not a producer: the links name the messages
        MessagingSpan batch = consumer(TRACE, "00000000000000c1", "00000000000000f1", "c", 3_000, 4_000,
                new SpanRef(TRACE, "00000000000000a1"), new SpanRef(TRACE, "00000000000000a2"),
                new SpanRef(TRACE, "00000000000000a1"));
        p.accept(first);
        p.accept(batch);
        p.accept(second);
        assertEquals(List.of(new MessageExchange(first, batch), new MessageExchange(second, batch)), messages);
        p.finish();
        assertEquals(new SpanPairer.Counts(3, 0, 2, 0, 0, 0, 0, 0), p.counts());
    }

    @Test
    void sameHostMessagesRootConsumersDuplicatesAndLoneHalvesAreCounted() {
        List<MessageExchange> messages = new ArrayList<>();
        SpanPairer p = new SpanPairer(3, out::add, messages::add);
        p.accept(producer(TRACE, "00000000000000a1", "a", 1_000, 2_000));
        p.accept(producer(TRACE, "00000000000000a1", "a", 1_000, 2_000)); // re-exported
        p.accept(consumer(TRACE, "00000000000000b1", "00000000000000a1", "a", 3_000, 4_000)); // same host
        p.accept(consumer(TRACE, "00000000000000b1", "00000000000000a1", "a", 3_000, 4_000)); // re-exported
        p.accept(consumer(TRACE, "00000000000000b2", "", "b", 3_000, 4_000)); // names no producer: a root
        p.accept(producer(TRACE, "00000000000000a3", "a", 1_000, 2_000)); // never consumed
        p.accept(consumer(TRACE, "00000000000000b4", "00000000000000a4", "b", 3_000, 4_000)); // never produced
        assertEquals(List.of(), messages);
        assertEquals(new SpanPairer.Counts(7, 0, 0, 1, 1, 2, 0, 2), p.counts());
        for (int i = 0; i < 6; i++) { // two generations later a3 and a4 are dropped, with d0 and d1
            p.accept(client("00000000000000d" + i, "a", 100, 900));
        }
        assertEquals(new SpanPairer.Counts(13, 0, 0, 1, 1, 2, 4, 4), p.counts());
        p.finish();
        assertEquals(new SpanPairer.Counts(13, 0, 0, 1, 1, 2, 8, 0), p.counts());
    }
}
