package io.tracesync.schema;

import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;

/** Confluent's subject name strategies: under which subject a topic's key or value schema is registered. */
public enum SubjectNameStrategy {
    /** {@code <topic>-key} / {@code <topic>-value}: one schema per topic (the default). */
    TOPIC_NAME("TopicNameStrategy"),
    /** The record's full name: one schema per record type, whatever the topic. */
    RECORD_NAME("RecordNameStrategy"),
    /** {@code <topic>-<record full name>}: several record types per topic. */
    TOPIC_RECORD_NAME("TopicRecordNameStrategy");

    private final String className;

    SubjectNameStrategy(String className) {
        this.className = className;
    }

    /** The subject of {@code schema} written as key ({@code isKey}) or value to {@code topic}. */
    public String subject(String topic, boolean isKey, Schema schema) {
        return switch (this) {
            case TOPIC_NAME -> topic + (isKey ? "-key" : "-value");
            case RECORD_NAME -> schema.getFullName();
            case TOPIC_RECORD_NAME -> topic + "-" + schema.getFullName();
        };
    }

    /**
     * The strategy named by {@code name}, a Confluent class name such as
     * {@code io.confluent.kafka.serializers.subject.RecordNameStrategy}: its simple name decides.
     */
    public static SubjectNameStrategy named(String key, String name) {
        String simple = name.substring(name.lastIndexOf('.') + 1).trim();
        for (SubjectNameStrategy s : values()) {
            if (s.className.equals(simple)) {
                return s;
            }
        }
        throw new ConfigException(key, name,
                "supported: TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy");
    }
}
