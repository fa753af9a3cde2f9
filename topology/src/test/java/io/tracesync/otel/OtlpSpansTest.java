package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which OTLP spans become calls' and messages' halves, and what is counted and left out. */
class OtlpSpansTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String OTHER_TRACE = "0af7651916cd43dd8448eb211c80319c";

    private static Span.Builder span(String id, String parent, Span.SpanKind kind) {
        return Span.newBuilder().setTraceId(bytes(TRACE)).setSpanId(bytes(id)).setParentSpanId(bytes(parent))
                .setKind(kind).setName("jobs").setStartTimeUnixNano(1_000).setEndTimeUnixNano(2_000);
    }

    private static Span.Link link(String trace, String id) {
        return Span.Link.newBuilder().setTraceId(bytes(trace)).setSpanId(bytes(id)).build();
    }

    private static ResourceSpans resource(String host, Span.Builder... spans) {
        Resource.Builder r = Resource.newBuilder();
        if (host != null) {
            r.addAttributes(KeyValue.newBuilder().setKey("host.name").setValue(AnyValue.newBuilder()
                    .setStringValue(host)));
        }
        ScopeSpans.Builder s = ScopeSpans.newBuilder();
        for (Span.Builder b : spans) {
            s.addSpans(b);
        }
        return ResourceSpans.newBuilder().setResource(r).addScopeSpans(s).build();
    }

    private static ByteString bytes(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }

    @Test
    void producerAndConsumerSpansAreMessagingHalvesWithTheirLinksOthersAreCounted() {
        ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(resource("a",
                        span("00000000000000a1", "", Span.SpanKind.SPAN_KIND_PRODUCER),
                        span("00000000000000a2", "00000000000000a1", Span.SpanKind.SPAN_KIND_INTERNAL),
                        // a link that is no span id: the span cannot be told which messages it received
                        span("00000000000000a3", "", Span.SpanKind.SPAN_KIND_CONSUMER)
                                .addLinks(Span.Link.newBuilder().setTraceId(bytes(TRACE))
                                        .setSpanId(bytes("00a1")))))
                .addResourceSpans(resource("b",
                        span("00000000000000b1", "00000000000000f1", Span.SpanKind.SPAN_KIND_CONSUMER)
                                .addLinks(link(TRACE, "00000000000000a1")).addLinks(link(OTHER_TRACE,
                                        "00000000000000c1")),
                        // links mean nothing to a call: kept whatever they hold
                        span("00000000000000b2", "", Span.SpanKind.SPAN_KIND_CLIENT)
                                .addLinks(Span.Link.newBuilder().setSpanId(bytes("00b2")))))
                .addResourceSpans(resource(null, span("00000000000000c3", "", Span.SpanKind.SPAN_KIND_PRODUCER)))
                .build();
        List<RpcSpan> calls = new ArrayList<>();
        List<MessagingSpan> messages = new ArrayList<>();
        OtlpSpans spans = new OtlpSpans(HostIdentity.DEFAULT);
        spans.read(request, calls::add, messages::add);

        assertEquals(List.of(new RpcSpan(TRACE, "00000000000000b2", "", RpcSpan.Kind.CLIENT, "b", 1_000, 2_000)),
                calls);
        MessagingSpan consumer = new MessagingSpan(TRACE, "00000000000000b1", "00000000000000f1",
                MessagingSpan.Kind.CONSUMER, "b", 1_000, 2_000, List.of(new SpanRef(TRACE, "00000000000000a1"),
                        new SpanRef(OTHER_TRACE, "00000000000000c1")));
        assertEquals(List.of(new MessagingSpan(TRACE, "00000000000000a1", "", MessagingSpan.Kind.PRODUCER, "a",
                1_000, 2_000, List.of()), consumer), messages);
        assertEquals(consumer.links(), consumer.producers(), "the links name the producers, not the parent");
        assertEquals(1, spans.otherKinds());
        assertEquals(1, spans.invalid());
        assertEquals(1, spans.withoutHost());
    }
}
