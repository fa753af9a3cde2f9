package io.tracesync.otel;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * {@code correct-spans}: each OTLP record of the input topic, its spans' times in reference time
 * ({@link SpanTimeCorrection}), to the output topic in the same encoding, key and partition by key kept — once the
 * data behind its hosts' factors reach its spans, or after {@code maxWait} ({@link HeldSpans}). A record that cannot
 * be decoded fails processing, so it goes where the processing exception handler sends it (the dead-letter topic
 * with tracesync's settings).
 */
public final class CorrectedSpansTopology {

    private CorrectedSpansTopology() {
    }

    /** @param maxWait how long a record may wait for its hosts' data (0: converted at once) */
    public static Topology build(String input, String output, OtlpFormat format, SpanTimeCorrection correction,
            Duration maxWait) {
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(HeldSpans.store());
        b.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .process(() -> new HeldSpans(format, correction, maxWait), Named.as("correct"), HeldSpans.STORE)
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return b.build();
    }
}
