package io.tracesync.streams.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.avro.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro records as JSON with the schemas' field names. A {@link ClockMap} becomes its exact slope and offset as
 * decimal strings (hi + lo, 40 significant digits, as {@code sync-pairs --json} prints them); a 64-bit integer
 * becomes the string of its decimal digits ({@link #integer}); a non-finite double becomes null.
 */
final class AvroJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AvroJson() {
    }

    /**
     * A 64-bit integer as a string of its decimal digits, as the proto3 JSON mapping writes int64: a parser that reads
     * every number as a double (JavaScript, jq) would round timestamps past 2^53 ns (104 days) and with them the
     * ends of a guaranteed interval.
     */
    static JsonNode integer(long value) {
        return NODES.textNode(Long.toString(value));
    }

    static JsonNode of(Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof ClockMap m) {
            ObjectNode o = NODES.objectNode();
            o.put("slope", DoubleDouble.of(m.getSlopeHi(), m.getSlopeLo()).toDecimalString());
            o.put("offset", DoubleDouble.of(m.getOffsetHi(), m.getOffsetLo()).toDecimalString());
            return o;
        }
        if (value instanceof SpecificRecord r) {
            ObjectNode o = NODES.objectNode();
            for (Schema.Field f : r.getSchema().getFields()) {
                o.set(f.name(), of(r.get(f.pos())));
            }
            return o;
        }
        if (value instanceof Collection<?> c) {
            ArrayNode a = NODES.arrayNode();
            c.forEach(v -> a.add(of(v)));
            return a;
        }
        if (value instanceof Map<?, ?> m) {
            ObjectNode o = NODES.objectNode();
            m.forEach((k, v) -> o.set(k.toString(), of(v)));
            return o;
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? NODES.numberNode(d) : NODES.nullNode();
        }
        if (value instanceof Long l) {
            return integer(l);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Enum<?> || value instanceof GenericEnumSymbol<?> || value instanceof CharSequence) {
            return NODES.textNode(value.toString());
        }
        throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
    }
}
