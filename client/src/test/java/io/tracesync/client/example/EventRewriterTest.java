package io.tracesync.client.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.Direction;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TraceEvent;
import io.tracesync.client.PublishedFactor;
import io.tracesync.schema.MockSchemaRegistry;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.schema.SpecificAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRewriterTest {

    private static final String SCOPE = "event-rewriter-test";
    private static final Map<String, String> CONFIG = Map.of("schema.registry.url", "mock://" + SCOPE);
    private static final byte[] KEY = {0, 0, 0, 0, 9, 1};

    private final SpecificAvroSerializer<TraceEvent> serializer = new SpecificAvroSerializer<>(TraceEvent.class);
    private final SpecificAvroDeserializer<TraceEvent> deserializer =
            new SpecificAvroDeserializer<>(TraceEvent.class);
    // b: t_ref = (1 + 2^-40)·t + 1000.25, up 1.5 ns, down 2 ns; c: unbounded
    private final Map<String, PublishedFactor> factors = Map.of(
            "b", PublishedFactor.of(factor("b", 1 + 0x1p-40, 1000.25, 1500L, 2000L, 4)),
            "c", PublishedFactor.of(factor("c", 1, -5, null, null, 1)));
    private final EventRewriter rewriter;

    EventRewriterTest() {
        serializer.configure(CONFIG, false);
        deserializer.configure(CONFIG, false);
        rewriter = new EventRewriter("out", (n, t) -> Optional.ofNullable(factors.get(n)).map(f -> f.convert(t)),
                deserializer, serializer);
    }

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.drop(SCOPE);
    }

    @Test
    void anEventOfANodeWithAFactorGetsReferenceTimeAndItsBounds() {
        long t = 1L << 50;
        ProducerRecord<byte[], byte[]> out = rewriter.rewrite(input(event("b", t)));
        TraceEvent e = deserializer.deserialize("out", out.value());
        // (1 + 2^-40)·2^50 + 1000.25 = 2^50 + 1024 + 1000.25
        long expected = t + 1024 + 1000;
        assertEquals(expected, e.getTsNs());
        assertEquals("b", e.getNode());
        assertEquals(77, e.getSeq());
        assertEquals("out", out.topic());
        assertArrayEquals(KEY, out.key());
        assertEquals(123L, out.timestamp());
        assertEquals("converted", header(out, EventRewriter.STATUS));
        assertEquals("ref", header(out, EventRewriter.REFERENCE));
        assertEquals("ref", header(out, EventRewriter.COMPONENT));
        assertEquals(Long.toString(t), header(out, EventRewriter.LOCAL_NS));
        assertEquals("4", header(out, EventRewriter.VERSION));
        assertEquals(Long.toString(expected - 2), header(out, EventRewriter.LOWER_NS)); // 1000.25 - 2 rounded down
        assertEquals(Long.toString(expected + 2), header(out, EventRewriter.UPPER_NS)); // 1000.25 + 1.5 rounded up
        assertEquals("kept", header(out, "origin"));
    }

    /** Each event is converted at its own time: by the versions in force then, not the latest. */
    @Test
    void eachEventIsConvertedByTheFactorInForceAtItsTime() {
        PublishedFactor old = PublishedFactor.of(factor("d", 1, 100, 1000L, 1000L, 1));
        PublishedFactor latest = PublishedFactor.of(factor("d", 1, 200, 1000L, 1000L, 2));
        EventRewriter byTime = new EventRewriter("out", (n, t) -> Optional.of((t < 1_000 ? old : latest).convert(t)),
                deserializer, serializer);
        ProducerRecord<byte[], byte[]> early = byTime.rewrite(input(event("d", 500)));
        assertEquals(600, deserializer.deserialize("out", early.value()).getTsNs());
        assertEquals("1", header(early, EventRewriter.VERSION));
        ProducerRecord<byte[], byte[]> late = byTime.rewrite(input(event("d", 1_500)));
        assertEquals(1_700, deserializer.deserialize("out", late.value()).getTsNs());
        assertEquals("2", header(late, EventRewriter.VERSION));
    }

    @Test
    void anUnboundedFactorConvertsWithoutBoundHeaders() {
        ProducerRecord<byte[], byte[]> out = rewriter.rewrite(input(event("c", 100)));
        assertEquals(95, deserializer.deserialize("out", out.value()).getTsNs());
        assertNull(out.headers().lastHeader(EventRewriter.LOWER_NS));
        assertNull(out.headers().lastHeader(EventRewriter.UPPER_NS));
    }

    @Test
    void eventsWithoutAFactorOrUndecodablePassUnchangedWithTheirStatus() {
        ConsumerRecord<byte[], byte[]> unknown = input(event("z", 100));
        ProducerRecord<byte[], byte[]> out = rewriter.rewrite(unknown);
        assertArrayEquals(unknown.value(), out.value());
        assertEquals("no-factor", header(out, EventRewriter.STATUS));
        assertNull(out.headers().lastHeader(EventRewriter.REFERENCE));

        ConsumerRecord<byte[], byte[]> garbage = record("garbage".getBytes(StandardCharsets.UTF_8));
        out = rewriter.rewrite(garbage);
        assertArrayEquals(garbage.value(), out.value());
        assertEquals("undecodable", header(out, EventRewriter.STATUS));
        assertEquals("undecodable", header(rewriter.rewrite(record(null)), EventRewriter.STATUS));
    }

    @Test
    void aReferenceTimeBeyondTheLongRangePassesUnchanged() {
        ConsumerRecord<byte[], byte[]> late = input(event("b", Long.MAX_VALUE - 10));
        ProducerRecord<byte[], byte[]> out = rewriter.rewrite(late);
        assertArrayEquals(late.value(), out.value());
        assertEquals("out-of-range", header(out, EventRewriter.STATUS));
    }

    private ConsumerRecord<byte[], byte[]> input(TraceEvent e) {
        return record(serializer.serialize("traces.b", e));
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("origin", "kept".getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>("traces.b", 0, 5, 123L, TimestampType.CREATE_TIME, KEY.length,
                value == null ? -1 : value.length, KEY, value, headers, Optional.empty());
    }

    private static TraceEvent event(String node, long t) {
        return TraceEvent.newBuilder().setNode(node).setTsNs(t).setDirection(Direction.SEND).setSeq(77)
                .setAckSeq(0).setFlags(2).build();
    }

    private static SyncFactor factor(String node, double slope, double offset, Long upPs, Long downPs,
            long version) {
        return SyncFactor.newBuilder().setNode(node).setComponent("ref").setReference("ref")
                .setMap(new ClockMap(slope, 0.0, offset, 0.0)).setUpPs(upPs).setDownPs(downPs).setBoundNs(null)
                .setValidFromMs(0).setVersion(version).build();
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String key) {
        return new String(r.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
    }
}
