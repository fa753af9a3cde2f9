package io.tracesync.otel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.io.Reader;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * OTLP/JSON, as the Collector's {@code otlp_json} encoding writes it. It is protobuf's JSON mapping except that trace
 * and span ids are hex strings where the mapping has base64 for bytes fields: the ids are rewritten to base64
 * (wherever they appear: spans, links) before {@link JsonFormat} reads the rest. Unknown fields are ignored, as
 * OTLP receivers must.
 */
public final class OtlpJson {

    private static final Set<String> ID_FIELDS = Set.of("traceId", "spanId", "parentSpanId", "trace_id", "span_id",
            "parent_span_id");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

    private OtlpJson() {
    }

    /** One request (the value of one Kafka record). */
    public static ExportTraceServiceRequest parse(String json) throws IOException {
        return parse(JSON.readTree(json));
    }

    /** Every request of a stream of JSON documents (JSON lines, or concatenated, as the file exporter writes). */
    public static void parseAll(Reader in, Consumer<ExportTraceServiceRequest> out) throws IOException {
        try (MappingIterator<JsonNode> docs = JSON.readerFor(JsonNode.class).readValues(in)) {
            while (docs.hasNext()) {
                out.accept(parse(docs.next()));
            }
        }
    }

    /** One request as OTLP/JSON, on one line, ids in hex. */
    public static String print(ExportTraceServiceRequest request) throws IOException {
        JsonNode doc = JSON.readTree(PRINTER.print(request));
        idsToHex(doc);
        return JSON.writeValueAsString(doc);
    }

    private static ExportTraceServiceRequest parse(JsonNode doc) throws IOException {
        if (doc == null || !doc.isObject()) {
            throw new IOException("not an OTLP/JSON ExportTraceServiceRequest: the document is not a JSON object");
        }
        idsToBase64(doc);
        ExportTraceServiceRequest.Builder b = ExportTraceServiceRequest.newBuilder();
        try {
            PARSER.merge(JSON.writeValueAsString(doc), b);
        } catch (InvalidProtocolBufferException | JsonProcessingException e) {
            throw new IOException("not an OTLP/JSON ExportTraceServiceRequest: " + e.getMessage(), e);
        }
        return b.build();
    }

    private static void idsToBase64(JsonNode node) throws IOException {
        rewriteIds(node, OtlpJson::base64);
    }

    private static void idsToHex(JsonNode node) throws IOException {
        rewriteIds(node, (field, b64) -> HexFormat.of().formatHex(Base64.getDecoder().decode(b64)));
    }

    private interface IdRewrite {
        String apply(String field, String id) throws IOException;
    }

    /** Every id field's text, wherever it is, through {@code rewrite}. */
    private static void rewriteIds(JsonNode node, IdRewrite rewrite) throws IOException {
        if (node.isArray()) {
            for (JsonNode n : node) {
                rewriteIds(n, rewrite);
            }
        } else if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            for (Map.Entry<String, JsonNode> f : o.properties()) {
                if (ID_FIELDS.contains(f.getKey()) && f.getValue().isTextual()) {
                    f.setValue(o.textNode(rewrite.apply(f.getKey(), f.getValue().asText())));
                } else {
                    rewriteIds(f.getValue(), rewrite);
                }
            }
        }
    }

    private static String base64(String field, String hex) throws IOException {
        try {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new IOException(field + " \"" + hex + "\" is not hex (OTLP/JSON writes ids as hex)", e);
        }
    }
}
