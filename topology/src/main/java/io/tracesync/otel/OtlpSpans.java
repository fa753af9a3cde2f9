package io.tracesync.otel;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The CLIENT and SERVER spans of OTLP requests as {@link RpcSpan}s, the PRODUCER and CONSUMER spans as
 * {@link MessagingSpan}s, each with the host its resource names ({@link HostIdentity}). Counted and left out: spans
 * of other kinds (INTERNAL, unspecified), spans whose resource names no host, and invalid spans (ids of the wrong
 * length, or in a messaging span's link, no start time, an end before the start, times of 2^62 ns or more).
 */
public final class OtlpSpans {

    private static final HexFormat HEX = HexFormat.of();
    /** Trace events' timestamps stay below 2^62 ns (the application's check). */
    private static final long MAX_TS_NS = 1L << 62;

    private final HostIdentity hosts;
    private long otherKinds;
    private long withoutHost;
    private long invalid;

    public OtlpSpans(HostIdentity hosts) {
        this.hosts = hosts;
    }

    public void read(ExportTraceServiceRequest request, Consumer<RpcSpan> calls, Consumer<MessagingSpan> messages) {
        for (ResourceSpans rs : request.getResourceSpansList()) {
            String host = hosts.of(attributes(rs.getResource())).orElse(null);
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    Span.SpanKind kind = s.getKind();
                    boolean rpc = kind == Span.SpanKind.SPAN_KIND_CLIENT || kind == Span.SpanKind.SPAN_KIND_SERVER;
                    boolean messaging = kind == Span.SpanKind.SPAN_KIND_PRODUCER
                            || kind == Span.SpanKind.SPAN_KIND_CONSUMER;
                    if (!rpc && !messaging) {
                        otherKinds++;
                    } else if (host == null) {
                        withoutHost++;
                    } else if (!valid(s, messaging)) {
                        invalid++;
                    } else if (rpc) {
                        calls.accept(new RpcSpan(hex(s.getTraceId()), hex(s.getSpanId()), hex(s.getParentSpanId()),
                                kind == Span.SpanKind.SPAN_KIND_CLIENT ? RpcSpan.Kind.CLIENT : RpcSpan.Kind.SERVER,
                                host, s.getStartTimeUnixNano(), s.getEndTimeUnixNano()));
                    } else {
                        messages.accept(new MessagingSpan(hex(s.getTraceId()), hex(s.getSpanId()),
                                hex(s.getParentSpanId()), kind == Span.SpanKind.SPAN_KIND_PRODUCER
                                        ? MessagingSpan.Kind.PRODUCER : MessagingSpan.Kind.CONSUMER,
                                host, s.getStartTimeUnixNano(), s.getEndTimeUnixNano(), s.getLinksList().stream()
                                        .map(l -> new SpanRef(hex(l.getTraceId()), hex(l.getSpanId()))).toList()));
                    }
                }
            }
        }
    }

    /** Ids of the right length (a messaging span's links too: they may name its producers), times in range. */
    private static boolean valid(Span s, boolean messaging) {
        return s.getTraceId().size() == 16 && s.getSpanId().size() == 8
                && (s.getParentSpanId().isEmpty() || s.getParentSpanId().size() == 8)
                && (!messaging || s.getLinksList().stream()
                        .allMatch(l -> l.getTraceId().size() == 16 && l.getSpanId().size() == 8))
                && s.getStartTimeUnixNano() > 0 && s.getEndTimeUnixNano() >= s.getStartTimeUnixNano()
                && s.getEndTimeUnixNano() < MAX_TS_NS;
    }

    /** A resource's string and integer attributes, as text. */
    static Map<String, String> attributes(Resource resource) {
        Map<String, String> a = new HashMap<>();
        for (KeyValue kv : resource.getAttributesList()) {
            AnyValue v = kv.getValue();
            if (v.hasStringValue()) {
                a.put(kv.getKey(), v.getStringValue());
            } else if (v.hasIntValue()) {
                a.put(kv.getKey(), Long.toString(v.getIntValue()));
            }
        }
        return a;
    }

    private static String hex(ByteString id) {
        return HEX.formatHex(id.toByteArray());
    }

    public long otherKinds() {
        return otherKinds;
    }

    public long withoutHost() {
        return withoutHost;
    }

    public long invalid() {
        return invalid;
    }
}
