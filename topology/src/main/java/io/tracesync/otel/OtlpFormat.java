package io.tracesync.otel;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The encodings of the Collector's Kafka exporter for traces, by their names there; one request per record. */
public enum OtlpFormat {
    OTLP_PROTO("otlp_proto"), OTLP_JSON("otlp_json");

    private final String name;

    OtlpFormat(String name) {
        this.name = name;
    }

    public static OtlpFormat named(String name) {
        return Arrays.stream(values()).filter(f -> f.name.equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("unknown OTLP encoding " + name + " (otlp_proto or otlp_json)"));
    }

    /** One request from its bytes. */
    public ExportTraceServiceRequest decode(byte[] bytes) throws IOException {
        if (this == OTLP_JSON) {
            return OtlpJson.parse(new String(bytes, StandardCharsets.UTF_8));
        }
        try {
            return ExportTraceServiceRequest.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("not an OTLP protobuf ExportTraceServiceRequest: " + e.getMessage(), e);
        }
    }

    /** One request's bytes in this encoding. */
    public byte[] encode(ExportTraceServiceRequest request) throws IOException {
        return this == OTLP_JSON ? OtlpJson.print(request).getBytes(StandardCharsets.UTF_8) : request.toByteArray();
    }

    @Override
    public String toString() {
        return name;
    }
}
