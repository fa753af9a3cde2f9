package io.tracesync.sim;

import io.tracesync.avro.Direction;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.schema.SchemaRegistryClient;
import io.tracesync.schema.SerdeConfig;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.schema.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A clean simulated cluster's trace records with malformed ones of every kind mixed in, as raw bytes for the
 * per-node topics, each malformed record with the reason it must be rejected with: for the tests of the dead-letter
 * topic and for the fault runs.
 */
public final class MalformedRecords {

    /** How a record is malformed, and the reason its dead letter must give. */
    public enum Kind {
        WRONG_MAGIC(true, "unknown magic byte"),
        UNKNOWN_SCHEMA_ID(true, "(unknown schema id |/schemas/ids/)\\d+"),
        SHORTER_THAN_HEADER(true, "shorter than the 5-byte header"),
        TRUNCATED_AVRO(true, "truncated or not this schema's Avro"),
        TRAILING_GARBAGE(true, "has bytes after its TraceEvent"),
        OTHER_SCHEMA(true, "Found io.tracesync.avro.MatchedPairs, expecting io.tracesync.avro.TraceEvent"),
        MISSING_FIELD(true, "missing required field (node|ts_ns)"),
        UNKNOWN_DIRECTION(true, "No match for FORWARD"),
        NULL_VALUE(false, "empty trace event \\(null value\\)"),
        NEGATIVE_TIMESTAMP(false, "negative timestamp -\\d+"),
        OVERFLOWING_TIMESTAMP(false, "overflows \\(2\\^62 ns or more\\)"),
        SELF_SEND(false, "node \\S+ sends to itself"),
        ADDRESS_LENGTH(false, "of \\d+ bytes is neither IPv4 \\(4\\) nor IPv6 \\(16\\)"),
        PORT_RANGE(false, "is not a port"),
        SEQ_RANGE(false, "is not a 32-bit sequence number|is not a TCP flags byte"),
        NODE_NOT_TOPICS(false, "event of node intruder-\\d+ in topic"),
        KEY_MISMATCH(false, "does not match the event's seq/ack_seq/flags"),
        CLOCK_JUMP(false, "clock jump: node \\S+ timestamp \\d+ is -?\\d+ ns from its previous event's"),
        DUPLICATE(false, "duplicate event: node \\S+ already recorded this (SEND|RECV)");

        /** Rejected when the record is read (the deserialization handler), not by a processor. */
        public final boolean undecodable;
        public final Pattern reason;

        Kind(boolean undecodable, String reason) {
            this.undecodable = undecodable;
            this.reason = Pattern.compile(reason);
        }

        /**
         * The one kind whose reason a dead letter's message gives (a truncated read is the catch-all of the
         * undecodable kinds), or null when none or several match.
         */
        public static Kind of(String message) {
            List<Kind> kinds = Arrays.stream(values()).filter(k -> k.reason.matcher(message).find()).toList();
            if (kinds.size() > 1) {
                kinds = kinds.stream().filter(k -> k != TRUNCATED_AVRO).toList();
            }
            return kinds.size() == 1 ? kinds.get(0) : null;
        }
    }

    /** One record for a trace topic; {@code kind} null for a good one. */
    public record Raw(String topic, byte[] key, byte[] value, Kind kind) {
    }

    private static final long HOUR_NS = 3_600_000_000_000L;
    private static final int SYN = 0x02;

    private final Serializer<SegmentKey> segmentKey;
    private final Serializer<TraceEvent> traceEvent;
    private final Serializer<MatchedPairs> matchedPairs;
    private final SchemaRegistryClient registry;
    private final UnaryOperator<String> topicOf;
    private final Random random;
    private final List<Raw> out = new ArrayList<>();
    private int serial;
    private int cuts;
    private int malformed;

    private MalformedRecords(Map<String, String> serdeConfig, UnaryOperator<String> topicOf, long seed) {
        this.segmentKey = serializer(SegmentKey.class, serdeConfig, true);
        this.traceEvent = serializer(TraceEvent.class, serdeConfig, false);
        this.matchedPairs = serializer(MatchedPairs.class, serdeConfig, false);
        this.registry = SerdeConfig.parse(serdeConfig).client();
        this.topicOf = topicOf;
        this.random = new Random(seed);
    }

    private static <T extends SpecificRecord> Serializer<T> serializer(Class<T> type, Map<String, String> config,
            boolean isKey) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
        serde.configure(config, isKey);
        return serde.serializer();
    }

    /**
     * The clean events in order, and after the first tenth (so every node's clock is known, in every partition)
     * at least {@code count} malformed records spread evenly among them, the kinds in turn. Copies of events are made
     * only of events already written that are the first send or first receive of a true pair. The records go to the
     * per-node topics {@code topicPrefix + node}, written as the application's serdes of {@code serdeConfig} write.
     */
    public static List<Raw> interleave(SimulatedTraces clean, Map<String, String> serdeConfig, String topicPrefix,
            int count, long seed) {
        return interleave(clean, serdeConfig, node -> topicPrefix + node, true, count, seed);
    }

    /**
     * As {@link #interleave(SimulatedTraces, Map, String, int, long)}, each node's records to {@code topicOf(node)}:
     * with {@code perNodeTopics} false (one multiplexed topic) no record of {@link Kind#NODE_NOT_TOPICS}, which only a
     * topic of its own can contradict.
     */
    public static List<Raw> interleave(SimulatedTraces clean, Map<String, String> serdeConfig,
            UnaryOperator<String> topicOf, boolean perNodeTopics, int count, long seed) {
        MalformedRecords m = new MalformedRecords(serdeConfig, topicOf, seed);
        Set<String> firsts = new HashSet<>();
        clean.pairs.forEach(p -> {
            firsts.add(p.sender() + "@" + p.sendNs());
            firsts.add(p.receiver() + "@" + p.recvNs());
        });
        // Short records are the first cut points of TRUNCATED_AVRO.
        Kind[] kinds = Arrays.stream(Kind.values()).filter(k -> k != Kind.SHORTER_THAN_HEADER
                && (perNodeTopics || k != Kind.NODE_NOT_TOPICS)).toArray(Kind[]::new);
        int warmup = clean.events.size() / 10;
        int slots = clean.events.size() - warmup;
        TraceEvent base = null;
        for (int i = 0; i < clean.events.size(); i++) {
            TraceEvent e = clean.events.get(i);
            m.good(e);
            if (firsts.contains(e.getNode() + "@" + e.getTsNs())) {
                base = e;
            }
            if (i < warmup || base == null) {
                continue;
            }
            long due = (long) count * (i - warmup + 1) / slots;
            while (m.malformed < due) {
                m.add(kinds[m.serial % kinds.length], base);
            }
        }
        return m.out;
    }

    private void good(TraceEvent e) {
        out.add(new Raw(topic(e), key(e), value(e), null));
    }

    private void add(Kind kind, TraceEvent base) {
        int n = serial++;
        String topic = topic(base);
        TraceEvent.Builder b = TraceEvent.newBuilder(base);
        byte[] clean = value(base);
        switch (kind) {
            case WRONG_MAGIC -> {
                byte[] v = clean.clone();
                v[0] = (byte) (1 + random.nextInt(255));
                bad(kind, topic, key(base), v);
            }
            case UNKNOWN_SCHEMA_ID -> bad(kind, topic, key(base),
                    withHeader(1_000_000 + random.nextInt(1_000_000), Arrays.copyOfRange(clean, 5, clean.length)));
            case SHORTER_THAN_HEADER, TRUNCATED_AVRO -> {
                int cut = cuts++ % clean.length;
                Kind k = cut < WireFormat.HEADER_SIZE ? Kind.SHORTER_THAN_HEADER : Kind.TRUNCATED_AVRO;
                bad(k, topic, key(base), Arrays.copyOf(clean, cut));
            }
            case TRAILING_GARBAGE -> {
                byte[] v = Arrays.copyOf(clean, clean.length + 1 + random.nextInt(8));
                v[clean.length] = (byte) (1 + random.nextInt(255));
                bad(kind, topic, key(base), v);
            }
            case OTHER_SCHEMA -> bad(kind, topic, key(base), matchedPairs.serialize(
                    "malformed-other-schema", new MatchedPairs(List.of(new MatchedPair(base.getNode(), base.getTsNs(),
                            "n" + n, 1L)))));
            case MISSING_FIELD -> bad(kind, topic, key(base), reduced(base, n % 2 == 0 ? "node" : "ts_ns"));
            case UNKNOWN_DIRECTION -> bad(kind, topic, key(base), forward(base));
            case NULL_VALUE -> bad(kind, topic, null, null);
            case NEGATIVE_TIMESTAMP -> event(kind, topic, b.setTsNs(-1 - random.nextInt(Integer.MAX_VALUE)).build());
            case OVERFLOWING_TIMESTAMP -> event(kind, topic,
                    b.setTsNs(n % 2 == 0 ? Long.MAX_VALUE - random.nextInt(1000) : (1L << 62) + n).build());
            case SELF_SEND -> {
                TraceEvent send = b.setFlags(SYN).setAckSeq(n).setDirection(Direction.SEND).build();
                out.add(new Raw(topic, key(send), value(send), null));
                event(kind, topic, TraceEvent.newBuilder(send).setDirection(Direction.RECV)
                        .setTsNs(send.getTsNs() + 1 + random.nextInt(100_000)).build());
            }
            case ADDRESS_LENGTH -> {
                int length = random.nextInt(20);
                length = length == 4 || length == 16 ? length + 1 : length;
                ByteBuffer a = ByteBuffer.wrap(new byte[length]);
                event(kind, topic, (n % 2 == 0 ? b.setSaddr(a) : b.setDaddr(a)).build());
            }
            case PORT_RANGE -> {
                int port = random.nextBoolean() ? -1 - random.nextInt(1000) : 65_536 + random.nextInt(1_000_000);
                event(kind, topic, (n % 2 == 0 ? b.setSport(port) : b.setDport(port)).build());
            }
            case SEQ_RANGE -> {
                long v = random.nextBoolean() ? -1 - random.nextInt(1000) : (1L << 32) + random.nextInt(1000);
                event(kind, topic, switch (n % 3) {
                    case 0 -> b.setSeq(v).build();
                    case 1 -> b.setAckSeq(v).build();
                    default -> b.setFlags(256 + random.nextInt(1000)).build();
                });
            }
            case NODE_NOT_TOPICS -> event(kind, topic, b.setNode("intruder-" + n).build());
            case KEY_MISMATCH -> bad(kind, topic, segmentKey.serialize(topic,
                    new SegmentKey(base.getSeq() ^ 1, base.getAckSeq(), base.getFlags())), clean);
            case CLOCK_JUMP -> event(kind, topic,
                    b.setTsNs(base.getTsNs() + (n % 2 == 0 ? 1 : -1) * (n + 2L) * HOUR_NS).build());
            case DUPLICATE -> {
                for (int copies = 1 + random.nextInt(5); copies > 0; copies--) {
                    bad(kind, topic, key(base), clean);
                }
            }
        }
    }

    private void event(Kind kind, String topic, TraceEvent e) {
        bad(kind, topic, key(e), value(e));
    }

    private void bad(Kind kind, String topic, byte[] key, byte[] value) {
        malformed++;
        out.add(new Raw(topic, key, value, kind));
    }

    private String topic(TraceEvent e) {
        return topicOf.apply(e.getNode());
    }

    private byte[] key(TraceEvent e) {
        return segmentKey.serialize(topic(e), new SegmentKey(e.getSeq(), e.getAckSeq(),
                e.getFlags()));
    }

    private byte[] value(TraceEvent e) {
        return traceEvent.serialize(topic(e), e);
    }

    /** The event written with a TraceEvent schema that lacks {@code field}. */
    private byte[] reduced(TraceEvent e, String field) {
        Schema full = TraceEvent.getClassSchema();
        List<Schema.Field> fields = full.getFields().stream().filter(f -> !f.name().equals(field))
                .map(f -> new Schema.Field(f, f.schema())).toList();
        Schema schema = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        GenericRecord r = new GenericData.Record(schema);
        fields.forEach(f -> r.put(f.name(), e.get(f.name())));
        r.put("direction", new GenericData.EnumSymbol(schema.getField("direction").schema(),
                e.getDirection().name()));
        return write(schema, r, "malformed-without-" + field);
    }

    /** The event with direction FORWARD, written with a Direction enum that has that extra symbol. */
    private byte[] forward(TraceEvent e) {
        Schema full = TraceEvent.getClassSchema();
        Schema direction = Schema.createEnum("Direction", null, full.getNamespace(), List.of("SEND", "RECV",
                "FORWARD"));
        List<Schema.Field> fields = full.getFields().stream()
                .map(f -> new Schema.Field(f, f.name().equals("direction") ? direction : f.schema())).toList();
        Schema schema = Schema.createRecord(full.getName(), null, full.getNamespace(), false, fields);
        GenericRecord r = new GenericData.Record(schema);
        fields.forEach(f -> r.put(f.name(), e.get(f.name())));
        r.put("direction", new GenericData.EnumSymbol(direction, "FORWARD"));
        return write(schema, r, "malformed-forward-direction");
    }

    private byte[] write(Schema schema, GenericRecord r, String subject) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
            new GenericDatumWriter<GenericRecord>(schema).write(r, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return withHeader(registry.register(subject, schema), bytes.toByteArray());
    }

    private static byte[] withHeader(int id, byte[] avro) {
        ByteBuffer b = ByteBuffer.allocate(WireFormat.HEADER_SIZE + avro.length);
        return b.put(WireFormat.header(id)).put(avro).array();
    }
}
