package io.tracesync.otel;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * {@code correct-spans}' step: a record whose spans lie past the data behind their hosts' factors — every live span,
 * since factors follow their data by a few seconds — waits until the data reach them, so that each time converts
 * between two versions of its host's factor, at most {@code maxWait} of wall-clock time; then it is converted with
 * what there is (past the newest data the bounds are carried: {@code tracesync.basis=extrapolated}). Nothing is
 * dropped. The records waiting are kept in a store with a changelog, so a crash loses none under exactly_once_v2;
 * they are looked at every {@link #CHECK} and leave in the order they came, each with its own key and timestamp
 * (headers are not kept).
 */
final class HeldSpans extends ContextualProcessor<byte[], byte[], byte[], byte[]> {

    static final String STORE = "held-spans";
    static final Duration CHECK = Duration.ofMillis(200);

    private final OtlpFormat format;
    private final SpanTimeCorrection correction;
    private final Duration maxWait;
    private KeyValueStore<Long, byte[]> held;
    private long next;

    HeldSpans(OtlpFormat format, SpanTimeCorrection correction, Duration maxWait) {
        this.format = format;
        this.correction = correction;
        this.maxWait = maxWait;
    }

    /** The store of the records waiting, by arrival. */
    static StoreBuilder<KeyValueStore<Long, byte[]>> store() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Long(), Serdes.ByteArray());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        super.init(context);
        held = context.getStateStore(STORE);
        try (KeyValueIterator<Long, byte[]> last = held.reverseAll()) {
            next = last.hasNext() ? last.next().key + 1 : 0;
        }
        context.schedule(CHECK, PunctuationType.WALL_CLOCK_TIME, this::release);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        ExportTraceServiceRequest request = decode(record.value());
        Map<String, Long> latest = correction.latestTimes(request);
        if (maxWait.isZero() || correction.ready(latest)) {
            context().forward(record.withValue(encode(correction.correct(request))));
        } else {
            held.put(next++, Held.of(record, context().currentSystemTimeMs() + maxWait.toMillis(), latest));
        }
    }

    /** Forwards, in arrival order, the records whose data have come or whose wait is over. */
    private void release(long now) {
        List<KeyValue<Long, Held>> due = new ArrayList<>();
        try (KeyValueIterator<Long, byte[]> it = held.all()) {
            while (it.hasNext()) {
                KeyValue<Long, byte[]> kv = it.next();
                Held h = Held.read(kv.value);
                if (now >= h.deadlineMs || correction.ready(h.latest)) {
                    due.add(KeyValue.pair(kv.key, h));
                }
            }
        }
        for (KeyValue<Long, Held> d : due) {
            Held h = d.value;
            context().forward(new Record<>(h.key, encode(correction.correct(decode(h.value))), h.timestamp));
            held.delete(d.key);
        }
    }

    private ExportTraceServiceRequest decode(byte[] value) {
        try {
            return format.decode(value == null ? new byte[0] : value);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private byte[] encode(ExportTraceServiceRequest request) {
        try {
            return format.encode(request);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** A record waiting: its key, value and timestamp, when its wait ends, and what it waits for. */
    private record Held(byte[] key, byte[] value, long timestamp, long deadlineMs, Map<String, Long> latest) {

        static byte[] of(Record<byte[], byte[]> r, long deadlineMs, Map<String, Long> latest) {
            byte[] key = r.key() == null ? new byte[0] : r.key();
            byte[] value = r.value();
            int size = 8 + 8 + 1 + 4 + key.length + 4 + value.length + 4;
            List<byte[]> hosts = new ArrayList<>();
            for (String host : latest.keySet()) {
                byte[] h = host.getBytes(StandardCharsets.UTF_8);
                hosts.add(h);
                size += 4 + h.length + 8;
            }
            ByteBuffer b = ByteBuffer.allocate(size).putLong(r.timestamp()).putLong(deadlineMs)
                    .put((byte) (r.key() == null ? 0 : 1)).putInt(key.length).put(key).putInt(value.length).put(value)
                    .putInt(hosts.size());
            int i = 0;
            for (long t : latest.values()) {
                byte[] h = hosts.get(i++);
                b.putInt(h.length).put(h).putLong(t);
            }
            return b.array();
        }

        static Held read(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            long timestamp = b.getLong();
            long deadline = b.getLong();
            boolean hasKey = b.get() == 1;
            byte[] key = new byte[b.getInt()];
            b.get(key);
            byte[] value = new byte[b.getInt()];
            b.get(value);
            Map<String, Long> latest = new LinkedHashMap<>();
            for (int n = b.getInt(); n > 0; n--) {
                byte[] h = new byte[b.getInt()];
                b.get(h);
                latest.put(new String(h, StandardCharsets.UTF_8), b.getLong());
            }
            return new Held(hasKey ? key : null, value, timestamp, deadline, latest);
        }
    }
}
