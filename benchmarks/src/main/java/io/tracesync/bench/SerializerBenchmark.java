package io.tracesync.bench;

import io.tracesync.avro.LinkSummary;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.schema.SpecificAvroSerializer;
import io.tracesync.streams.link.LinkSummaries;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What writing a link summary costs — the record the link step sends the network task for every link that changed
 * enough, and the network task writes to its store for every summary it applies: {@code serializer} with the
 * application's {@link SpecificAvroSerializer} (the generated class's own encoder, wire-format header included),
 * {@code genericWriter} with Avro's generic writer of the same data model, as the serializer wrote before; and
 * reading it back, {@code deserializer} (Avro's reader compiled for the writer's schema). A summary of a settled
 * link (25 s of 400 messages/s each way).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerializerBenchmark {

    LinkSummary summary;
    SpecificAvroSerializer<LinkSummary> serializer;
    SpecificDatumWriter<LinkSummary> generic;
    SpecificAvroDeserializer<LinkSummary> deserializer;
    byte[] bytes;

    @Setup(Level.Trial)
    public void summary() {
        LinkPairStream stream = new LinkPairStream(10_000, 1_250_000.0, false, new Random(42));
        ConvexHullLink link = new ConvexHullLink(LinkOptions.DEFAULT);
        for (int i = 0; i < 10_000; i++) {
            stream.add(link, i);
        }
        LinkKey key = LinkKey.between("node-00017", "node-04711");
        summary = LinkSummaries.of(key, link, LinkEstimate.of(key, link));
        Map<String, String> registry = Map.of("schema.registry.url", "mock://" + UUID.randomUUID());
        serializer = new SpecificAvroSerializer<>(LinkSummary.class);
        serializer.configure(registry, false);
        generic = new SpecificDatumWriter<>(LinkSummary.getClassSchema(), SpecificData.getForClass(LinkSummary.class));
        deserializer = new SpecificAvroDeserializer<>(LinkSummary.class);
        deserializer.configure(registry, false);
        bytes = serializer.serialize("network", summary);
    }

    @Benchmark
    public byte[] serializer() {
        return serializer.serialize("network", summary);
    }

    @Benchmark
    public LinkSummary deserializer() {
        return deserializer.deserialize("network", bytes);
    }

    @Benchmark
    public byte[] genericWriter() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(new byte[5]);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        generic.write(summary, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
