package io.tracesync.client.example;

import io.tracesync.avro.TraceEvent;
import io.tracesync.client.ReferenceTime;
import io.tracesync.schema.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * One trace record rewritten: its event's {@code ts_ns} converted to reference time by the factors in force at that
 * time ({@code SyncClock.convert}: an event hours late or from an archive gets the versions around its own time, not
 * the latest), with headers saying how. The key, the record timestamp and the input's headers are kept. Header values are UTF-8 text (numbers in decimal):
 *
 * <ul>
 *   <li>{@value #STATUS}: {@code converted}; or, the value passed through unchanged, {@code no-factor} (the
 *       node has no factor yet), {@code undecodable} (null, or not a TraceEvent in the Confluent wire format) or
 *       {@code out-of-range} (the reference time does not fit a long)</li>
 *   <li>when converted: {@value #REFERENCE} (the reference node), {@value #COMPONENT}, {@value #LOCAL_NS} (the
 *       original timestamp), {@value #VERSION} (that of the factor in force at it) and, when bounded, {@value #LOWER_NS} and
 *       {@value #UPPER_NS}: the reference's true time lies between them</li>
 * </ul>
 */
public final class EventRewriter {

    public static final String STATUS = "tracesync.status";
    public static final String REFERENCE = "tracesync.reference";
    public static final String COMPONENT = "tracesync.component";
    public static final String LOCAL_NS = "tracesync.local_ns";
    public static final String LOWER_NS = "tracesync.lower_ns";
    public static final String UPPER_NS = "tracesync.upper_ns";
    public static final String VERSION = "tracesync.version";

    private final String output;
    private final BiFunction<String, Long, Optional<ReferenceTime>> convert;
    private final Deserializer<TraceEvent> reader;
    private final Serializer<TraceEvent> writer;

    /**
     * @param output the topic written to
     * @param convert a node's local time in reference time ({@code SyncClock::convert}), empty without a factor
     * @param reader decodes input values
     * @param writer encodes output values for {@code output}
     */
    public EventRewriter(String output, BiFunction<String, Long, Optional<ReferenceTime>> convert,
            Deserializer<TraceEvent> reader, Serializer<TraceEvent> writer) {
        this.output = output;
        this.convert = convert;
        this.reader = reader;
        this.writer = writer;
    }

    /**
     * The output record of {@code in}.
     *
     * @throws SchemaRegistryUnavailableException if the registry cannot answer now (retry later)
     */
    public ProducerRecord<byte[], byte[]> rewrite(ConsumerRecord<byte[], byte[]> in) {
        Headers headers = new RecordHeaders(in.headers().toArray());
        TraceEvent event;
        try {
            event = reader.deserialize(in.topic(), in.headers(), in.value());
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (SerializationException e) {
            return unchanged(in, headers, "undecodable");
        }
        if (event == null) {
            return unchanged(in, headers, "undecodable");
        }
        Optional<ReferenceTime> converted;
        try {
            converted = convert.apply(event.getNode(), event.getTsNs());
        } catch (ArithmeticException e) {
            return unchanged(in, headers, "out-of-range");
        }
        if (converted.isEmpty()) {
            return unchanged(in, headers, "no-factor");
        }
        ReferenceTime c = converted.get();
        put(headers, STATUS, "converted");
        put(headers, REFERENCE, c.reference());
        put(headers, COMPONENT, c.component());
        put(headers, LOCAL_NS, Long.toString(c.localNs()));
        put(headers, VERSION, Long.toString(c.version()));
        c.lowerNs().ifPresent(v -> put(headers, LOWER_NS, Long.toString(v)));
        c.upperNs().ifPresent(v -> put(headers, UPPER_NS, Long.toString(v)));
        TraceEvent rewritten = TraceEvent.newBuilder(event).setTsNs(c.referenceNs()).build();
        return new ProducerRecord<>(output, null, in.timestamp(), in.key(), writer.serialize(output, rewritten),
                headers);
    }

    private ProducerRecord<byte[], byte[]> unchanged(ConsumerRecord<byte[], byte[]> in, Headers headers,
            String status) {
        put(headers, STATUS, status);
        return new ProducerRecord<>(output, null, in.timestamp(), in.key(), in.value(), headers);
    }

    private static void put(Headers headers, String key, String value) {
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }
}
