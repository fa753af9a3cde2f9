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
import io.tracesync.client.ReferenceTime;
import io.tracesync.core.history.HistoricConversion.Basis;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

class CorrectedSpansTopologyTest {

    /** A request of one span of {@code host}, from 5,000 to 9,000 ns of its clock. */
    private static ExportTraceServiceRequest request(String host) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(
                ResourceSpans.newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                        .setKey("host.name").setValue(AnyValue.newBuilder().setStringValue(host))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder()
                                .setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(
                                        new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                                .setKind(Span.SpanKind.SPAN_KIND_SERVER).setStartTimeUnixNano(5_000)
                                .setEndTimeUnixNano(9_000)))).build();
    }

    /** Every host 1 µs behind its reference; interpolated up to the newest data, extrapolated past it. */
    private static SpanTimeCorrection correction(Map<String, Long> newestData) {
        return new SpanTimeCorrection(HostIdentity.DEFAULT, (host, t, reference) -> {
            boolean between = newestData.containsKey(host) && t <= newestData.get(host);
            return Optional.of(new ReferenceTime(host, "web", "web", t, t - 1_000, OptionalLong.of(t - 1_010),
                    OptionalLong.of(t - 990), 1, between ? OptionalLong.of(2) : OptionalLong.empty(),
                    between ? Basis.INTERPOLATED : Basis.EXTRAPOLATED, 0, false));
        }, host -> newestData.containsKey(host) ? OptionalLong.of(newestData.get(host)) : OptionalLong.empty());
    }

    private static Properties properties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "correct-spans-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        return p;
    }

    private static String attribute(ExportTraceServiceRequest r, String key) {
        return r.getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesList().stream()
                .filter(a -> a.getKey().equals(key)).findFirst().orElseThrow().getValue().getStringValue();
    }

    /**
     * A record whose spans lie past its host's data waits for them, then converts between two versions; one whose
     * host's data never come leaves when its wait is over, converted with what there is; none is lost or
     * reordered.
     */
    @Test
    void aRecordWaitsForItsHostsDataAtMostTheLongestWait() throws Exception {
        Map<String, Long> newest = new ConcurrentHashMap<>(Map.of("api", 7_000L, "db", 1_000L));
        SpanTimeCorrection correction = correction(newest);
        OtlpFormat format = OtlpFormat.OTLP_PROTO;
        try (TopologyTestDriver driver = new TopologyTestDriver(CorrectedSpansTopology.build("otlp_spans",
                "otlp_spans.corrected", format, correction, Duration.ofSeconds(10)), properties())) {
            TestInputTopic<byte[], byte[]> in = driver.createInputTopic("otlp_spans", new ByteArraySerializer(),
                    new ByteArraySerializer());
            TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic("otlp_spans.corrected",
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
            in.pipeInput(new byte[] {1}, format.encode(request("db")));
            in.pipeInput(new byte[] {2}, format.encode(request("api")));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            assertTrue(out.isEmpty(), "both wait: their spans end at 9,000 ns, the data at 7,000 and 1,000");
            newest.put("api", 9_500L);
            driver.advanceWallClockTime(Duration.ofMillis(200));
            var api = out.readRecord();
            assertEquals(2, api.key()[0]);
            assertEquals("interpolated", attribute(format.decode(api.value()), SpanTimeCorrection.BASIS));
            assertTrue(out.isEmpty());
            driver.advanceWallClockTime(Duration.ofSeconds(9));
            var db = out.readRecord();
            assertEquals(1, db.key()[0]);
            assertEquals("extrapolated", attribute(format.decode(db.value()), SpanTimeCorrection.BASIS),
                    "converted with the newest after the wait, and marked so");
            in.pipeInput(new byte[] {3}, format.encode(request("api")));
            assertEquals(3, out.readRecord().key()[0], "the data are there: at once");
        }
    }

    @Test
    void everyRecordComesOutCorrectedInItsEncodingUnderItsKey() throws Exception {
        ExportTraceServiceRequest request = request("api");
        SpanTimeCorrection correction = correction(Map.of());
        for (OtlpFormat format : OtlpFormat.values()) {
            try (TopologyTestDriver driver = new TopologyTestDriver(CorrectedSpansTopology.build("otlp_spans",
                    "otlp_spans.corrected", format, correction, Duration.ZERO), properties())) {
                TestInputTopic<byte[], byte[]> in = driver.createInputTopic("otlp_spans", new ByteArraySerializer(),
                        new ByteArraySerializer());
                TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic("otlp_spans.corrected",
                        new ByteArrayDeserializer(), new ByteArrayDeserializer());
                in.pipeInput(new byte[] {42}, format.encode(request));
                var record = out.readRecord();
                assertEquals(42, record.key()[0], format.toString());
                ExportTraceServiceRequest corrected = format.decode(record.value());
                assertEquals(correction.correct(request), corrected, format.toString());
                assertEquals(4_000, corrected.getResourceSpans(0).getScopeSpans(0).getSpans(0).getStartTimeUnixNano());
            }
        }
    }
}
