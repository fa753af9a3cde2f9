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
 * The CLIENT and SERVER spans of OTLP requests as {@link RpcSpan}s, each with the host its resource names
 * ({@link HostIdentity}). Counted and left out: spans of other kinds, spans whose resource names no host, and
 * invalid spans (ids of the wrong length, no start time, an end before the start, times of 2^62 ns or more).
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

    public void read(ExportTraceServiceRequest request, Consumer<RpcSpan> out) {
        for (ResourceSpans rs : request.getResourceSpansList()) {
            String host = hosts.of(attributes(rs.getResource())).orElse(null);
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    RpcSpan.Kind kind = switch (s.getKind()) {
                        case SPAN_KIND_CLIENT -> RpcSpan.Kind.CLIENT;
                        case SPAN_KIND_SERVER -> RpcSpan.Kind.SERVER;
                        default -> null;
                    };
                    if (kind == null) {
                        otherKinds++;
                    } else if (host == null) {
                        withoutHost++;
                    } else if (s.getTraceId().size() != 16 || s.getSpanId().size() != 8
                            || !(s.getParentSpanId().isEmpty() || s.getParentSpanId().size() == 8)
                            || s.getStartTimeUnixNano() <= 0 || s.getEndTimeUnixNano() < s.getStartTimeUnixNano()
                            || s.getEndTimeUnixNano() >= MAX_TS_NS) {
                        invalid++;
                    } else {
                        out.accept(new RpcSpan(hex(s.getTraceId()), hex(s.getSpanId()), hex(s.getParentSpanId()),
                                kind, host, s.getStartTimeUnixNano(), s.getEndTimeUnixNano()));
                    }
                }
            }
        }
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
