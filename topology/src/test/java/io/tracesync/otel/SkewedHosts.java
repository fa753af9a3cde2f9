package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Hosts traced by the real OpenTelemetry SDK, each with its own {@link Clock}: local(T) = T + offset + drift·(T −
 * T0) for the simulated true time T, rounded to the nanosecond, and for a host with a temperature cycle its
 * frequency moving as amplitude·sin(2π(T − T0)/period) on top of the drift. Calls between them advance T by realistic network
 * delays (a per-direction minimum plus an exponential queueing part) and server work, messages by a broker's
 * delays and a consumer's polling or processing; the SDK's spans, batched per
 * host as a batch processor would, come out as OTLP requests marshaled by the SDK's own exporter code. Public for
 * the integration tests.
 */
public final class SkewedHosts {

    public static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

    /**
     * One host: its clock's offset (ns), drift (ppm) and cycle (amplitude in ppm, period in ns), its tracer and the
     * spans it finished.
     */
    public final class Host implements Clock {
        final String name;
        final long offsetNs;
        final double driftPpm;
        final double cyclePpm;
        final long periodNs;
        final Tracer tracer;
        final List<SpanData> finished = new ArrayList<>();

        Host(String name, long offsetNs, double driftPpm, double cyclePpm, long periodNs) {
            this.name = name;
            this.offsetNs = offsetNs;
            this.driftPpm = driftPpm;
            this.cyclePpm = cyclePpm;
            this.periodNs = periodNs;
            SpanExporter collect = new SpanExporter() {
                @Override
                public CompletableResultCode export(Collection<SpanData> spans) {
                    finished.addAll(spans);
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode flush() {
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode shutdown() {
                    return CompletableResultCode.ofSuccess();
                }
            };
            SdkTracerProvider provider = SdkTracerProvider.builder().setClock(this)
                    .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("host.name"), name,
                            AttributeKey.stringKey("service.name"), "svc-" + name)))
                    .addSpanProcessor(SimpleSpanProcessor.create(collect)).build();
            this.tracer = provider.get("tracesync-test");
        }

        /** This host's clock at true time t. */
        public long localAt(long t) {
            return t + offsetNs + Math.round((t - T0) * driftPpm * 1e-6 + cycled(t));
        }

        /** What the cycle added to the clock by true time t, in ns: the integral of its frequency. */
        private double cycled(long t) {
            return cyclePpm == 0 ? 0
                    : cyclePpm * 1e-6 * periodNs / (2 * Math.PI) * (1 - Math.cos(2 * Math.PI * (t - T0) / periodNs));
        }

        /**
         * The true time at which this clock read {@code local}, within a nanosecond or two (a fixed point: the cycle
         * moves the clock by less than a millionth of the step).
         */
        public long trueAt(long local) {
            long t = T0;
            for (int i = 0; i < 4; i++) {
                t = T0 + Math.round((local - T0 - offsetNs - cycled(t)) / (1 + driftPpm * 1e-6));
            }
            return t;
        }

        public String name() {
            return name;
        }

        @Override
        public long now() {
            return localAt(trueNs);
        }

        @Override
        public long nanoTime() {
            return localAt(trueNs);
        }
    }

    /** A call as it happened, in true time: request sent and received, response sent and received. */
    record Call(Host client, Host server, long requestSentNs, long requestReceivedNs) {
    }

    /** A message through a broker as it happened, in true time: it left the producer, it reached the consumer. */
    record Message(Host producer, Host consumer, long sentNs, long receivedNs) {
    }

    private final Random random;
    final List<Host> hosts = new ArrayList<>();
    final List<Call> calls = new ArrayList<>();
    final List<Message> messages = new ArrayList<>();
    private long trueNs = T0;

    public SkewedHosts(long seed) {
        random = new Random(seed);
    }

    public Host host(String name, long offsetNs, double driftPpm) {
        return host(name, offsetNs, driftPpm, 0, 1);
    }

    /** A host whose frequency also cycles by ± {@code cyclePpm} over {@code period} (a temperature cycle). */
    public Host host(String name, long offsetNs, double driftPpm, double cyclePpm, Duration period) {
        return host(name, offsetNs, driftPpm, cyclePpm, period.toNanos());
    }

    private Host host(String name, long offsetNs, double driftPpm, double cyclePpm, long periodNs) {
        Host h = new Host(name, offsetNs, driftPpm, cyclePpm, periodNs);
        hosts.add(h);
        return h;
    }

    /**
     * One call from client to server at true time {@code atNs}; the request takes at least 80 µs, the response 40 µs
     * (asymmetric paths, which is what misleads the midpoint heuristic), each plus an exponential 150 µs on average.
     */
    public void call(Host client, Host server, long atNs) {
        trueNs = atNs;
        Span c = client.tracer.spanBuilder("GET /item").setSpanKind(SpanKind.CLIENT).startSpan();
        long sent = trueNs;
        trueNs += delay(80_000);
        long received = trueNs;
        SpanContext remote = SpanContext.createFromRemoteParent(c.getSpanContext().getTraceId(),
                c.getSpanContext().getSpanId(), TraceFlags.getSampled(), TraceState.getDefault());
        Span s = server.tracer.spanBuilder("GET /item").setSpanKind(SpanKind.SERVER)
                .setParent(Context.root().with(Span.wrap(remote))).startSpan();
        trueNs += 20_000 + (long) (random.nextDouble() * 500_000);
        s.end();
        trueNs += delay(40_000);
        c.end();
        calls.add(new Call(client, server, sent, received));
    }

    /**
     * One message from producer to consumer through a broker, sent at true time {@code atNs} (the PRODUCER span
     * starts then, the message leaves up to 50 µs later) and received at least 400 µs later plus an exponential
     * 1 ms. With {@code link} the CONSUMER span is a receive (a poll) that links to the producer span: it starts up
     * to 2 ms before the message arrives, perhaps before it was sent, and ends 10–60 µs after. Without, it is a
     * process span, a child of the producer span, from 5–25 µs after arrival for 20–520 µs. The producer span ends
     * on the broker's acknowledgement, 200 µs plus an exponential 1 ms after the send: often after the consumer's.
     */
    public void publish(Host producer, Host consumer, long atNs, boolean link) {
        trueNs = atNs;
        Span p = producer.tracer.spanBuilder("jobs publish").setSpanKind(SpanKind.PRODUCER).startSpan();
        long sent = atNs + (long) (random.nextDouble() * 50_000);
        long received = sent + 400_000 + (long) (-Math.log(1 - random.nextDouble()) * 1_000_000);
        long acknowledged = sent + 200_000 + (long) (-Math.log(1 - random.nextDouble()) * 1_000_000);
        SpanContext remote = SpanContext.createFromRemoteParent(p.getSpanContext().getTraceId(),
                p.getSpanContext().getSpanId(), TraceFlags.getSampled(), TraceState.getDefault());
        SpanBuilder c = consumer.tracer.spanBuilder(link ? "jobs receive" : "jobs process")
                .setSpanKind(SpanKind.CONSUMER);
        long start;
        long end;
        if (link) {
            c.setNoParent().addLink(remote);
            start = received - (long) (random.nextDouble() * 2_000_000);
            end = received + 10_000 + (long) (random.nextDouble() * 50_000);
        } else {
            c.setParent(Context.root().with(Span.wrap(remote)));
            start = received + 5_000 + (long) (random.nextDouble() * 20_000);
            end = start + 20_000 + (long) (random.nextDouble() * 500_000);
        }
        trueNs = start;
        Span s = c.startSpan();
        trueNs = end;
        s.end();
        trueNs = acknowledged;
        p.end();
        messages.add(new Message(producer, consumer, sent, received));
    }

    private long delay(long minNs) {
        return minNs + (long) (-Math.log(1 - random.nextDouble()) * 150_000);
    }

    /**
     * Checks a request of these hosts' spans as {@code correct-spans} writes it: every span corrected, with its bound,
     * its start and end within that bound of its reference's true clock (and 2 ns for {@link Host#trueAt}'s
     * rounding). Returns how many spans it holds.
     */
    public int assertCorrected(ExportTraceServiceRequest corrected) {
        int spans = 0;
        for (ResourceSpans rs : corrected.getResourceSpansList()) {
            Host host = named(OtlpSpans.attributes(rs.getResource()).get("host.name"));
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (io.opentelemetry.proto.trace.v1.Span s : ss.getSpansList()) {
                    Map<String, AnyValue> a = new HashMap<>();
                    s.getAttributesList().forEach(kv -> a.put(kv.getKey(), kv.getValue()));
                    assertEquals("corrected", a.get(SpanTimeCorrection.STATUS).getStringValue(), host.name);
                    Host reference = named(a.get(SpanTimeCorrection.REFERENCE).getStringValue());
                    assertTrue(a.containsKey(SpanTimeCorrection.BOUND_NS), () -> host.name + ": no bound in " + a);
                    long bound = a.get(SpanTimeCorrection.BOUND_NS).getIntValue();
                    assertWithin(s.getStartTimeUnixNano(), host, a.get(SpanTimeCorrection.LOCAL_START_NS).getIntValue(),
                            reference, bound);
                    assertWithin(s.getEndTimeUnixNano(), host, a.get(SpanTimeCorrection.LOCAL_END_NS).getIntValue(),
                            reference, bound);
                    spans++;
                }
            }
        }
        return spans;
    }

    /** {@code corrected} lies within {@code bound} of the reference's clock when host's read {@code local}. */
    private static void assertWithin(long corrected, Host host, long local, Host reference, long bound) {
        long truth = reference.localAt(host.trueAt(local));
        assertTrue(Math.abs(corrected - truth) <= bound + 2, () -> host.name + " at " + local + ": " + corrected
                + " vs " + truth + " +- " + bound);
    }

    private Host named(String name) {
        return hosts.stream().filter(h -> h.name.equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no host " + name));
    }

    /** How many spans the hosts finished. */
    public int spans() {
        return hosts.stream().mapToInt(h -> h.finished.size()).sum();
    }

    /** Every host's finished spans as OTLP requests of at most {@code batch} spans, the hosts' batches shuffled. */
    public List<byte[]> requests(int batch, boolean json) {
        List<byte[]> out = new ArrayList<>();
        for (Host h : hosts) {
            for (int i = 0; i < h.finished.size(); i += batch) {
                TraceRequestMarshaler m = TraceRequestMarshaler.create(
                        h.finished.subList(i, Math.min(h.finished.size(), i + batch)));
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try {
                    if (json) {
                        m.writeJsonTo(bytes);
                    } else {
                        m.writeBinaryTo(bytes);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                out.add(bytes.toByteArray());
            }
        }
        Collections.shuffle(out, random);
        return out;
    }
}
