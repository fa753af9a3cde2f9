package io.tracesync.schema;

import org.apache.avro.Schema;

/**
 * What the serdes need of a Confluent-compatible schema registry. Implementations are thread-safe and answer
 * failures with {@link org.apache.kafka.common.errors.SerializationException}.
 */
public interface SchemaRegistryClient {

    /** Registers {@code schema} under {@code subject} (a no-op if it is there) and returns its global id. */
    int register(String subject, Schema schema);

    /** The id of {@code schema} already registered under {@code subject}, without registering it. */
    int id(String subject, Schema schema);

    /** The schema with global id {@code id}. */
    Schema schema(int id);
}
