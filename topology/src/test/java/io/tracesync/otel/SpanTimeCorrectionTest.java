package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tracesync.client.ReferenceTime;
import io.tracesync.core.history.HistoricConversion.Basis;
import io.tracesync.core.network.Conversion;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SpanTimeCorrectionTest {

    /**
     * web is the reference; api's clock is 21 ms ahead, known within ±700 ns between two versions of its factor up
     * to t = 8,000 ns, and from the newest alone after; db has no factor.
     */
    private static Optional<ReferenceTime> convert(String host, long t, String reference) {
        if (reference != null && !reference.equals("web")) {
            return Optional.empty();
        }
        return switch (host) {
            case "web" -> Optional.of(new ReferenceTime(host, "web", "web", t, t, OptionalLong.of(t),
                    OptionalLong.of(t), 1, OptionalLong.empty(), Basis.EXTRAPOLATED, 0, false));
            case "api" -> Optional.of(new ReferenceTime(host, "web", "web", t, t - 21_000_000,
                    OptionalLong.of(t - 21_000_700), OptionalLong.of(t - 20_999_500), 3,
                    t < 8_000 ? OptionalLong.of(4) : OptionalLong.empty(),
                    t < 8_000 ? Basis.INTERPOLATED : Basis.EXTRAPOLATED, Math.abs(t - 4_000), false));
            default -> Optional.empty();
        };
    }

    /**
     * A host whose reference changes from web to api at 6,000 ns of its clock: a span from 5,000 to 9,000 ns keeps
     * its start's reference, its end and events converted to web's time too.
     */
    @Test
    void aSpanAcrossAChangeOfReferenceKeepsItsStartsClock() {
        SpanTimeCorrection correction = new SpanTimeCorrection(HostIdentity.DEFAULT, (host, t, reference) -> {
            String r = reference != null ? reference : t < 6_000 ? "web" : "api";
            long offset = r.equals("web") ? 1_000 : 50_000;
            return Optional.of(new ReferenceTime(host, "web", r, t, t - offset, OptionalLong.of(t - offset - 10),
                    OptionalLong.of(t - offset + 10), 1, OptionalLong.empty(), Basis.EXTRAPOLATED, 0, false));
        }, host -> OptionalLong.empty());
        Span span = Span.newBuilder().setStartTimeUnixNano(5_000).setEndTimeUnixNano(9_000)
                .addEvents(Span.Event.newBuilder().setTimeUnixNano(7_000)).build();
        ExportTraceServiceRequest out = correction.correct(ExportTraceServiceRequest.newBuilder().addResourceSpans(
                ResourceSpans.newBuilder().setResource(Resource.newBuilder()
                        .addAttributes(KeyValue.newBuilder().setKey("host.name").setValue(
                                AnyValue.newBuilder().setStringValue("mid"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span)))
                .build());
        Span corrected = out.getResourceSpans(0).getScopeSpans(0).getSpans(0);
        assertEquals(4_000, corrected.getStartTimeUnixNano());
        assertEquals(8_000, corrected.getEndTimeUnixNano(), "the end in web's time, not api's");
        assertEquals(6_000, corrected.getEvents(0).getTimeUnixNano());
        assertEquals("web", corrected.getAttributesList().stream()
                .filter(kv -> kv.getKey().equals(SpanTimeCorrection.REFERENCE)).findFirst().orElseThrow()
                .getValue().getStringValue());
    }

    /**
     * Where the host's factor carries a datasheet bound, the span says how far its corrected times lie from the
     * edges of that interval too: the larger of its start's and end's (here the end's upper edge, 70 ns off), in the
     * start's reference.
     */
    @Test
    void theDatasheetBoundOfBothTimesIsAnAttribute() {
        SpanTimeCorrection correction = new SpanTimeCorrection(HostIdentity.DEFAULT, (host, t, reference) ->
                Optional.of(new ReferenceTime(host, "web", "web", t, t - 1_000, OptionalLong.of(t - 1_010),
                        OptionalLong.of(t - 990), 1, OptionalLong.empty(), Basis.EXTRAPOLATED, 0, false)),
                host -> OptionalLong.empty(), (host, t, reference) -> Optional.of("web".equals(reference)
                        ? new Conversion(t, BigDecimal.valueOf(t - 1_000), t - 1_040, t < 9_000 ? t - 950 : t - 930)
                        : new Conversion(t, BigDecimal.ZERO, 0L, 0L)));
        Span span = Span.newBuilder().setStartTimeUnixNano(5_000).setEndTimeUnixNano(9_000).build();
        Span corrected = correction.correct(ExportTraceServiceRequest.newBuilder().addResourceSpans(
                ResourceSpans.newBuilder().setResource(Resource.newBuilder()
                        .addAttributes(KeyValue.newBuilder().setKey("host.name").setValue(
                                AnyValue.newBuilder().setStringValue("mid"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span)))
                .build()).getResourceSpans(0).getScopeSpans(0).getSpans(0);
        Map<String, Long> ints = corrected.getAttributesList().stream().filter(kv -> kv.getValue().hasIntValue())
                .collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().getIntValue()));
        assertEquals(10, ints.get(SpanTimeCorrection.BOUND_NS));
        assertEquals(70, ints.get(SpanTimeCorrection.DATASHEET_BOUND_NS));
    }

    @Test
    void spanTimesGoToReferenceTimeWithTheirBoundAndTheOriginalsAsAttributes() throws IOException {
        SkewedHosts sim = new SkewedHosts(3);
        SkewedHosts.Host web = sim.host("web", 0, 0);
        SkewedHosts.Host api = sim.host("api", 21_000_000, 0);
        SkewedHosts.Host db = sim.host("db", 5_000_000, 0);
        sim.call(web, api, SkewedHosts.T0);
        sim.call(api, db, SkewedHosts.T0 + 1_000_000_000L);
        SpanTimeCorrection correction = new SpanTimeCorrection(HostIdentity.DEFAULT, SpanTimeCorrectionTest::convert,
                host -> OptionalLong.empty());
        for (byte[] bytes : sim.requests(10, false)) {
            ExportTraceServiceRequest in = OtlpFormat.OTLP_PROTO.decode(bytes);
            ExportTraceServiceRequest out = correction.correct(in);
            for (int r = 0; r < in.getResourceSpansCount(); r++) {
                String host = OtlpSpans.attributes(in.getResourceSpans(r).getResource()).get("host.name");
                ResourceSpans before = in.getResourceSpans(r);
                ResourceSpans after = out.getResourceSpans(r);
                for (int i = 0; i < before.getScopeSpans(0).getSpansCount(); i++) {
                    Span b = before.getScopeSpans(0).getSpans(i);
                    Span a = after.getScopeSpans(0).getSpans(i);
                    Map<String, String> attrs = a.getAttributesList().stream().collect(Collectors.toMap(
                            KeyValue::getKey, kv -> kv.getValue().hasIntValue()
                                    ? Long.toString(kv.getValue().getIntValue()) : kv.getValue().getStringValue()));
                    assertEquals(b.getTraceId(), a.getTraceId());
                    if (host.equals("db")) {
                        assertEquals(b.toBuilder().addAttributes(a.getAttributes(0)).build(), a);
                        assertEquals("no_factor", attrs.get(SpanTimeCorrection.STATUS));
                        continue;
                    }
                    long shift = host.equals("api") ? 21_000_000 : 0;
                    assertEquals(b.getStartTimeUnixNano() - shift, a.getStartTimeUnixNano());
                    assertEquals(b.getEndTimeUnixNano() - shift, a.getEndTimeUnixNano());
                    assertEquals("corrected", attrs.get(SpanTimeCorrection.STATUS));
                    assertEquals("web", attrs.get(SpanTimeCorrection.REFERENCE));
                    assertEquals(Long.toString(b.getStartTimeUnixNano()), attrs.get(SpanTimeCorrection.LOCAL_START_NS));
                    assertEquals(Long.toString(b.getEndTimeUnixNano()), attrs.get(SpanTimeCorrection.LOCAL_END_NS));
                    assertEquals(host.equals("api") ? "700" : "0", attrs.get(SpanTimeCorrection.BOUND_NS));
                    boolean interpolated = host.equals("api") && b.getEndTimeUnixNano() < 8_000;
                    assertEquals(interpolated ? "interpolated" : "extrapolated", attrs.get(SpanTimeCorrection.BASIS));
                    assertEquals(Long.toString(host.equals("web") ? 0 : Math.max(Math.abs(b.getStartTimeUnixNano()
                            - 4_000), Math.abs(b.getEndTimeUnixNano() - 4_000))), attrs.get(
                            SpanTimeCorrection.FROM_DATA_NS));
                }
            }
            byte[] json = OtlpFormat.OTLP_JSON.encode(out);
            assertEquals(out, OtlpFormat.OTLP_JSON.decode(json));
            String traceId = java.util.HexFormat.of().formatHex(
                    out.getResourceSpans(0).getScopeSpans(0).getSpans(0).getTraceId().toByteArray());
            assertTrue(new String(json, StandardCharsets.UTF_8).contains("\"traceId\":\"" + traceId + "\""));
        }
    }
}
