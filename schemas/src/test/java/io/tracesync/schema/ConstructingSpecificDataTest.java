package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class ConstructingSpecificDataTest {

    private final ConstructingSpecificData data = new ConstructingSpecificData(getClass().getClassLoader());

    @Test
    void everyGeneratedTypeIsCreatedFreshByItsConstructor() {
        for (Class<? extends SpecificRecord> type : GeneratedTypes.ALL) {
            Schema schema = SpecificData.get().getSchema(type);
            GenericData.InstanceSupplier supplier = data.getNewRecordSupplier(schema);
            Object first = supplier.newInstance(null, schema);
            Object second = supplier.newInstance(first, schema);
            assertEquals(type, first.getClass());
            assertNotSame(first, second, type + ": a record handed downstream is never reused");
        }
    }

    @Test
    void recordsWithoutAGeneratedClassStayGeneric() {
        Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"NotGenerated\",\"namespace\":"
                + "\"io.tracesync.none\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]}");
        assertTrue(data.getNewRecordSupplier(schema).newInstance(null, schema) instanceof GenericData.Record);
    }

}
