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
import io.tracesync.client.ReferenceTime;
import io.tracesync.core.history.HistoricConversion.Basis;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

class CorrectedSpansTopologyTest {

    @Test
    void everyRecordComesOutCorrectedInItsEncodingUnderItsKey() throws Exception {
        ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder().addResourceSpans(
                ResourceSpans.newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                        .setKey("host.name").setValue(AnyValue.newBuilder().setStringValue("api"))))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder()
                                .setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(ByteString.copyFrom(
                                        new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                                .setKind(Span.SpanKind.SPAN_KIND_SERVER).setStartTimeUnixNano(5_000)
                                .setEndTimeUnixNano(9_000)))).build();
        SpanTimeCorrection correction = new SpanTimeCorrection(HostIdentity.DEFAULT, (host, t) -> Optional.of(
                new ReferenceTime(host, "web", "web", t, t - 1_000, OptionalLong.of(t - 1_010),
                        OptionalLong.of(t - 990), 1, OptionalLong.empty(), Basis.EXTRAPOLATED, 0, false)));
        for (OtlpFormat format : OtlpFormat.values()) {
            Properties p = new Properties();
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "correct-spans-test");
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
            try (TopologyTestDriver driver = new TopologyTestDriver(
                    CorrectedSpansTopology.build("otlp_spans", "otlp_spans.corrected", format, correction), p)) {
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
