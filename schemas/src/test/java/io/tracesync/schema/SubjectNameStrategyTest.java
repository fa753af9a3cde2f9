package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.avro.TraceEvent;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class SubjectNameStrategyTest {

    private static final Schema EVENT = TraceEvent.getClassSchema();

    @Test
    void topicNameIsTopicDashKeyOrValue() {
        assertEquals("traces.n1-key", SubjectNameStrategy.TOPIC_NAME.subject("traces.n1", true, EVENT));
        assertEquals("traces.n1-value", SubjectNameStrategy.TOPIC_NAME.subject("traces.n1", false, EVENT));
    }

    @Test
    void recordNameIsTheFullName() {
        assertEquals("io.tracesync.avro.TraceEvent", SubjectNameStrategy.RECORD_NAME.subject("t", true, EVENT));
        assertEquals("io.tracesync.avro.TraceEvent", SubjectNameStrategy.RECORD_NAME.subject("t", false, EVENT));
    }

    @Test
    void topicRecordNameIsTopicDashFullName() {
        assertEquals("t-io.tracesync.avro.TraceEvent",
                SubjectNameStrategy.TOPIC_RECORD_NAME.subject("t", false, EVENT));
    }

    @Test
    void namedByConfluentClassNames() {
        String pkg = "io.confluent.kafka.serializers.subject.";
        assertEquals(SubjectNameStrategy.TOPIC_NAME, SubjectNameStrategy.named("k", pkg + "TopicNameStrategy"));
        assertEquals(SubjectNameStrategy.RECORD_NAME, SubjectNameStrategy.named("k", pkg + "RecordNameStrategy"));
        assertEquals(SubjectNameStrategy.TOPIC_RECORD_NAME,
                SubjectNameStrategy.named("k", pkg + "TopicRecordNameStrategy"));
        assertEquals(SubjectNameStrategy.RECORD_NAME, SubjectNameStrategy.named("k", "RecordNameStrategy"));
    }

    @Test
    void unknownStrategyIsAConfigError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> SubjectNameStrategy.named("value.subject.name.strategy", "com.example.MyStrategy"));
        assertEquals(true, e.getMessage().contains("value.subject.name.strategy"));
    }
}
