package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tracesync.core.link.SendReceive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Messages through a broker between hosts with skewed, drifting clocks, as OTLP PRODUCER and CONSUMER spans in any
 * order: every message comes out exactly once, and never as a pair that contradicts causality — at the instant the
 * producer's clock read the pair's send time, the consumer's had not yet passed the pair's receive time (the
 * condition for a point above every compatible clock line, docs/LINK-CORE.md). The spans are timed as real
 * instrumentations time them: the producer span may end after the consumer's, a receive span may start before the
 * message was sent.
 */
class MessagingCausalityTest {

    private static final long T0 = SkewedHosts.T0;

    /** local(t) = t + offset + ⌊(t − T0)·ppm / 10^6⌋: non-decreasing for |ppm| &lt; 10^6. */
    record Clock(long offsetNs, long ppm) {
        long localAt(long t) {
            return t + offsetNs + Math.floorDiv((t - T0) * ppm, 1_000_000);
        }

        /** The first true time at which this clock reads {@code local} or more. */
        long firstAt(long local) {
            long lo = T0 - 10_000_000_000L;
            long hi = T0 + 10_000_000_000_000L;
            while (lo < hi) {
                long mid = lo + (hi - lo) / 2;
                if (localAt(mid) >= local) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
    }

    enum ConsumerSpan {
        /** A process span, child of the producer span: it starts after the message arrived. */
        PROCESS_CHILD,
        /** A receive span (a poll) linking to the producer span, in a trace of its own: it may start long before. */
        RECEIVE_LINK
    }

    /** True-time offsets of one message: from the producer span's start to the send, then to the arrival, etc. */
    record Timing(long sendLag, long delay, long pollLead, long work, long ack) {
    }

    record Spec(int producer, int consumerShift, long atNs, ConsumerSpan consumer, Timing t) {
    }

    @Provide
    Arbitrary<List<Clock>> clocks() {
        return Combinators.combine(Arbitraries.longs().between(-2_000_000_000L, 2_000_000_000L),
                Arbitraries.longs().between(-200, 200)).as(Clock::new).list().ofSize(4);
    }

    @Provide
    Arbitrary<List<Spec>> messages() {
        Arbitrary<Timing> timing = Combinators.combine(Arbitraries.longs().between(0, 50_000),
                Arbitraries.longs().between(1, 5_000_000), Arbitraries.longs().between(0, 5_000_000),
                Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs().between(0, 10_000_000))
                .as(Timing::new);
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 3),
                Arbitraries.longs().between(0, 600_000_000_000L), Arbitraries.of(ConsumerSpan.values()), timing)
                .as((p, shift, at, c, t) -> new Spec(p, shift, T0 + at, c, t)).list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 400)
    void noPairIsReceivedBeforeItWasSent(@ForAll("clocks") List<Clock> clocks, @ForAll("messages") List<Spec> specs,
            @ForAll Random random) {
        List<ResourceSpans> spans = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            Clock p = clocks.get(s.producer());
            Clock c = clocks.get(consumer(s));
            long sent = s.atNs() + s.t().sendLag();
            long arrived = sent + s.t().delay();
            String trace = "%032x".formatted(i + 1);
            String producer = "%016x".formatted(2L * i + 1);
            spans.add(span(s.producer(), trace, producer, "", Span.SpanKind.SPAN_KIND_PRODUCER,
                    p.localAt(s.atNs()), p.localAt(sent + s.t().ack()), null));
            if (s.consumer() == ConsumerSpan.PROCESS_CHILD) {
                long start = arrived + s.t().work() / 3;
                spans.add(span(consumer(s), trace, "%016x".formatted(2L * i + 2), producer,
                        Span.SpanKind.SPAN_KIND_CONSUMER, c.localAt(start), c.localAt(start + s.t().work()), null));
            } else {
                spans.add(span(consumer(s), "%032x".formatted(1_000_000 + i), "%016x".formatted(2L * i + 2), "",
                        Span.SpanKind.SPAN_KIND_CONSUMER, c.localAt(arrived - s.t().pollLead()),
                        c.localAt(arrived + s.t().work()), new SpanRef(trace, producer)));
            }
        }
        Collections.shuffle(spans, random);

        Map<String, SendReceive> byProducer = new HashMap<>();
        SpanPairer pairer = new SpanPairer(1_000, x -> {
            throw new AssertionError("no call here: " + x);
        }, m -> assertTrue(byProducer.put(m.producer().spanId(), m.message()) == null, "twice: " + m));
        new OtlpSpans(HostIdentity.DEFAULT).read(ExportTraceServiceRequest.newBuilder().addAllResourceSpans(spans)
                .build(), x -> {
                    throw new AssertionError("no call here: " + x);
                }, pairer::accept);
        pairer.finish();
        assertEquals(new SpanPairer.Counts(2L * specs.size(), 0, specs.size(), 0, 0, 0, 0, 0), pairer.counts());

        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            SendReceive m = byProducer.get("%016x".formatted(2L * i + 1));
            assertEquals("h" + s.producer(), m.sender());
            assertEquals("h" + consumer(s), m.receiver());
            long sendInstant = clocks.get(s.producer()).firstAt(m.sendNs());
            long consumerThen = clocks.get(consumer(s)).localAt(sendInstant);
            assertTrue(consumerThen <= m.recvNs(), () -> s + ": the consumer's clock read " + consumerThen
                    + " when the producer's read " + m.sendNs() + ", after the receive " + m.recvNs());
        }
    }

    private static int consumer(Spec s) {
        return (s.producer() + s.consumerShift()) % 4;
    }

    private static ResourceSpans span(int host, String trace, String id, String parent, Span.SpanKind kind,
            long startNs, long endNs, SpanRef link) {
        Span.Builder b = Span.newBuilder().setTraceId(bytes(trace)).setSpanId(bytes(id)).setParentSpanId(bytes(parent))
                .setKind(kind).setName("jobs").setStartTimeUnixNano(startNs).setEndTimeUnixNano(endNs);
        if (link != null) {
            b.addLinks(Span.Link.newBuilder().setTraceId(bytes(link.traceId())).setSpanId(bytes(link.spanId())));
        }
        return ResourceSpans.newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                .setKey("host.name").setValue(AnyValue.newBuilder().setStringValue("h" + host))))
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(b)).build();
    }

    private static ByteString bytes(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }
}
