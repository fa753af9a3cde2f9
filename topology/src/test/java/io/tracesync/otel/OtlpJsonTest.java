package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpJsonTest {

    private static final String TRACE = "5b8efff798038103d269b633813fc60c";
    private static final String CLIENT = "eee19b7ec3c1b174";

    /** A request as the Collector writes it: hex ids, numbers as strings, enums as numbers, unknown fields. */
    private static final String REQUEST = """
            {"resourceSpans":[{"resource":{"attributes":[
                {"key":"service.name","value":{"stringValue":"checkout"}},
                {"key":"host.name","value":{"stringValue":"node-b"}}]},
              "scopeSpans":[{"scope":{"name":"io.opentelemetry.okhttp"},"spans":[
                {"traceId":"%s","spanId":"eee19b7ec3c1b173","parentSpanId":"%s","name":"GET /cart",
                 "kind":2,"startTimeUnixNano":"1767225600000300000","endTimeUnixNano":1767225600000600000,
                 "links":[{"traceId":"%s","spanId":"%s"}],"somethingNew":true,
                 "status":{"code":"STATUS_CODE_OK"}}]}]}]}
            """.formatted(TRACE, CLIENT, TRACE, CLIENT);

    @Test
    void hexIdsAreReadAsTheirBytesWhereProtobufsOwnMappingReadsBase64() throws IOException {
        ExportTraceServiceRequest r = OtlpJson.parse(REQUEST);
        Span s = r.getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertEquals(TRACE, HexFormat.of().formatHex(s.getTraceId().toByteArray()));
        assertEquals(CLIENT, HexFormat.of().formatHex(s.getParentSpanId().toByteArray()));
        assertEquals(CLIENT, HexFormat.of().formatHex(s.getLinks(0).getSpanId().toByteArray()));
        assertEquals(Span.SpanKind.SPAN_KIND_SERVER, s.getKind());
        assertEquals(1767225600000300000L, s.getStartTimeUnixNano());

        // The plain mapping takes the 32 hex digits for base64: 24 bytes, not the trace id's 16.
        ExportTraceServiceRequest.Builder plain = ExportTraceServiceRequest.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(REQUEST, plain);
        assertEquals(24, plain.getResourceSpans(0).getScopeSpans(0).getSpans(0).getTraceId().size());

        List<RpcSpan> spans = new ArrayList<>();
        new OtlpSpans(HostIdentity.DEFAULT).read(r, spans::add, m -> fail("no messaging span here: " + m));
        assertEquals(List.of(new RpcSpan(TRACE, "eee19b7ec3c1b173", CLIENT, RpcSpan.Kind.SERVER, "node-b",
                1767225600000300000L, 1767225600000600000L)), spans);
    }

    @Test
    void idsThatAreNotHexAreReportedByField() {
        IOException e = assertThrows(IOException.class,
                () -> OtlpJson.parse(REQUEST.replace("\"" + CLIENT + "\",\"name\"", "\"XuGbfsPBsXQ=\",\"name\"")));
        assertEquals("parentSpanId \"XuGbfsPBsXQ=\" is not hex (OTLP/JSON writes ids as hex)", e.getMessage());
        assertThrows(IOException.class, () -> OtlpJson.parse("[1,2]"));
    }

    @Test
    void theSdksOwnJsonAndProtobufGiveTheSameSpans() throws IOException {
        SkewedHosts sim = new SkewedHosts(7);
        SkewedHosts.Host a = sim.host("a", 5_000_000, 10);
        SkewedHosts.Host b = sim.host("b", -9_000_000, -20);
        for (int i = 0; i < 50; i++) {
            sim.call(i % 2 == 0 ? a : b, i % 2 == 0 ? b : a, SkewedHosts.T0 + i * 10_000_000L);
            sim.publish(i % 2 == 0 ? a : b, i % 2 == 0 ? b : a, SkewedHosts.T0 + i * 10_000_000L + 5_000_000L,
                    i % 3 == 0);
        }
        Decoded fromProto = new Decoded();
        Decoded fromJson = new Decoded();
        OtlpSpans spans = new OtlpSpans(HostIdentity.DEFAULT);
        for (byte[] r : sim.requests(16, false)) {
            spans.read(OtlpFormat.OTLP_PROTO.decode(r), fromProto.calls::add, fromProto.messages::add);
        }
        StringBuilder jsonLines = new StringBuilder();
        for (byte[] r : sim.requests(16, true)) {
            spans.read(OtlpFormat.OTLP_JSON.decode(r), fromJson.calls::add, fromJson.messages::add);
            jsonLines.append(new String(r, StandardCharsets.UTF_8)).append('\n');
        }
        Decoded fromLines = new Decoded();
        OtlpJson.parseAll(new StringReader(jsonLines.toString()),
                r -> spans.read(r, fromLines.calls::add, fromLines.messages::add));

        for (Decoded d : List.of(fromProto, fromJson, fromLines)) {
            d.calls.sort(Comparator.comparing(RpcSpan::spanId));
            d.messages.sort(Comparator.comparing(MessagingSpan::spanId));
        }
        assertEquals(100, fromProto.calls.size());
        assertEquals(100, fromProto.messages.size());
        assertEquals(17, fromProto.messages.stream().filter(m -> !m.links().isEmpty()).count());
        assertEquals(fromProto.calls, fromJson.calls);
        assertEquals(fromProto.messages, fromJson.messages);
        assertEquals(fromProto.calls, fromLines.calls);
        assertEquals(fromProto.messages, fromLines.messages);
        assertTrue(jsonLines.indexOf("\"traceId\":\"" + fromProto.calls.get(0).traceId() + "\"") >= 0,
                "the SDK writes hex ids");
    }

    /** The spans of one decoding. */
    private record Decoded(List<RpcSpan> calls, List<MessagingSpan> messages) {
        Decoded() {
            this(new ArrayList<>(), new ArrayList<>());
        }
    }
}
