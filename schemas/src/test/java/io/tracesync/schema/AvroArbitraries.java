package io.tracesync.schema;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/** Random values of an Avro schema, records as their generated classes; covers the types the schemas use. */
final class AvroArbitraries {

    private AvroArbitraries() {
    }

    static Arbitrary<SpecificRecord> records(Class<? extends SpecificRecord> type) {
        return of(SpecificData.get().getSchema(type)).map(SpecificRecord.class::cast);
    }

    static Arbitrary<Object> of(Schema schema) {
        return switch (schema.getType()) {
            case NULL -> Arbitraries.just(null);
            case BOOLEAN -> Arbitraries.of(true, false).map(Object.class::cast);
            case INT -> Arbitraries.integers().map(Object.class::cast);
            case LONG -> Arbitraries.longs().map(Object.class::cast);
            case DOUBLE -> Arbitraries.doubles().withSpecialValue(Double.NaN)
                    .withSpecialValue(Double.NEGATIVE_INFINITY).map(Object.class::cast);
            case STRING -> Arbitraries.strings().withCharRange(' ', '\uD7FF').ofMaxLength(12).map(Object.class::cast);
            case BYTES -> Arbitraries.bytes().array(byte[].class).ofMaxSize(16).map(ByteBuffer::wrap)
                    .map(Object.class::cast);
            case ENUM -> Arbitraries.of(schema.getEnumSymbols())
                    .map(s -> SpecificData.get().createEnum(s, schema));
            case UNION -> Arbitraries.oneOf(schema.getTypes().stream().map(AvroArbitraries::of).toList());
            case ARRAY -> of(schema.getElementType()).list().ofMaxSize(4).map(Object.class::cast);
            case RECORD -> record(schema);
            default -> throw new IllegalArgumentException("no arbitrary for " + schema.getType());
        };
    }

    private static Arbitrary<Object> record(Schema schema) {
        List<Arbitrary<Object>> fields = schema.getFields().stream().map(f -> of(f.schema())).toList();
        return Combinators.combine(fields).as(values -> {
            SpecificRecord r = (SpecificRecord) SpecificData.get().newRecord(null, schema);
            for (int i = 0; i < values.size(); i++) {
                r.put(i, values.get(i));
            }
            return r;
        });
    }
}
