package io.tracesync.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * An in-memory registry for tests, one per {@code mock://SCOPE} URL and shared by every serde configured with it.
 * Like a real registry, ids are global and an identical schema gets the same id under every subject; no
 * compatibility is checked.
 */
public final class MockSchemaRegistry implements SchemaRegistryClient {

    private static final Map<String, MockSchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private final List<Schema> byId = new ArrayList<>();
    private final Map<String, List<Schema>> subjects = new HashMap<>();

    private MockSchemaRegistry() {
    }

    /** The registry of {@code scope}, created empty on first use. */
    public static MockSchemaRegistry scope(String scope) {
        return SCOPES.computeIfAbsent(scope, s -> new MockSchemaRegistry());
    }

    /** Forgets {@code scope}: its next use starts empty. Serdes configured before keep the old registry. */
    public static void drop(String scope) {
        SCOPES.remove(scope);
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        int i = byId.indexOf(schema);
        if (i < 0) {
            byId.add(schema);
            i = byId.size() - 1;
        }
        List<Schema> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!versions.contains(schema)) {
            versions.add(schema);
        }
        return i + 1;
    }

    @Override
    public synchronized int id(String subject, Schema schema) {
        List<Schema> versions = subjects.get(subject);
        if (versions == null) {
            throw new SerializationException("subject '" + subject + "' not found in mock registry");
        }
        if (!versions.contains(schema)) {
            throw new SerializationException("schema " + schema.getFullName() + " not registered under subject '"
                    + subject + "' in mock registry");
        }
        return byId.indexOf(schema) + 1;
    }

    @Override
    public synchronized Schema schema(int id) {
        if (id < 1 || id > byId.size()) {
            throw new SerializationException("unknown schema id " + id + " in mock registry");
        }
        return byId.get(id - 1);
    }

    /** The subjects registered so far, each with its versions in order. */
    public synchronized Map<String, List<Schema>> subjects() {
        Map<String, List<Schema>> copy = new TreeMap<>();
        subjects.forEach((s, v) -> copy.put(s, List.copyOf(v)));
        return copy;
    }
}
