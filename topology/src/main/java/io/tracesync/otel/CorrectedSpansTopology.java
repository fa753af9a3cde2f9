package io.tracesync.otel;

import java.io.IOException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * {@code correct-spans}: each OTLP record of the input topic, its spans' times in reference time
 * ({@link SpanTimeCorrection}), to the output topic in the same encoding, key and partition by key kept. A record
 * that cannot be decoded fails processing, so it goes where the processing exception handler sends it (the
 * dead-letter topic with tracesync's settings).
 */
public final class CorrectedSpansTopology {

    private CorrectedSpansTopology() {
    }

    public static Topology build(String input, String output, OtlpFormat format, SpanTimeCorrection correction) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(v -> {
                    try {
                        return format.encode(correction.correct(format.decode(v == null ? new byte[0] : v)));
                    } catch (IOException e) {
                        throw new IllegalArgumentException(e.getMessage(), e);
                    }
                })
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return b.build();
    }
}
