package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.avro.Direction;
import io.tracesync.avro.SegmentKey;
import io.tracesync.avro.TraceEvent;
import io.tracesync.cli.TracesyncCommand;
import io.tracesync.schema.SpecificAvroDeserializer;
import io.tracesync.streams.matcher.SegmentPartitioning;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import pcap} on the real broker and registry: a node's capture becomes its events in its topic, keyed by
 * segment key and each in its segment's partition, as {@code import csv} writes them.
 */
@ExtendWith(SharedKafkaEnvironment.class)
class ImportPcapIntegrationTest {

    private static final byte[] NODE = {10, 0, 0, 1};
    private static final byte[] PEER = {10, 0, 0, 2};

    @TempDir
    Path dir;

    @Test
    void aCaptureBecomesTheNodesEventsInTheirSegmentsPartitions() throws Exception {
        String id = "it-pcap-" + UUID.randomUUID();
        ByteBuffer pcap = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        pcap.putInt(0xA1B23C4D).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        for (int i = 0; i < 20; i++) {
            boolean send = i % 2 == 0;
            byte[] frame = frame(send ? NODE : PEER, send ? PEER : NODE, 1000 + i, 7 * i, 0x18);
            pcap.putInt(1_700_000_000 + i).putInt(123).putInt(frame.length).putInt(frame.length).put(frame);
        }
        Path file = Files.write(dir.resolve("n.pcap"), Arrays.copyOf(pcap.array(), pcap.position()));

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = TracesyncCommand.commandLine().setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute("import", "pcap", "--node", "n", "--address", "10.0.0.1",
                        "--bootstrap-servers", SharedKafkaEnvironment.bootstrapServers(), "--schema-registry-url",
                        SharedKafkaEnvironment.registryUrl(), "-D", "traces.topic.prefix=" + id + ".",
                        "-D", "topics.partitions=3", file.toString());
        assertEquals(0, exit, err.toString());
        assertTrue(out.toString().startsWith("imported 20 events of node n from 1 file(s) into topic " + id + ".n"),
                out.toString());

        Map<String, Object> config = Map.of("bootstrap.servers", SharedKafkaEnvironment.bootstrapServers(),
                "schema.registry.url", SharedKafkaEnvironment.registryUrl());
        List<ConsumerRecord<byte[], byte[]>> records = AwaitedRecords.read(config, id + ".n", 20,
                Duration.ofSeconds(60), Duration.ofSeconds(1));
        assertEquals(20, records.size());
        SpecificAvroDeserializer<TraceEvent> values = new SpecificAvroDeserializer<>(TraceEvent.class);
        values.configure(config, false);
        SpecificAvroDeserializer<SegmentKey> keys = new SpecificAvroDeserializer<>(SegmentKey.class);
        keys.configure(config, true);
        for (ConsumerRecord<byte[], byte[]> r : records) {
            TraceEvent e = values.deserialize(r.topic(), r.value());
            int i = (int) e.getSeq() - 1000;
            boolean send = i % 2 == 0;
            assertEquals(TraceEvent.newBuilder().setNode("n").setTsNs((1_700_000_000L + i) * 1_000_000_000L + 123)
                    .setDirection(send ? Direction.SEND : Direction.RECV)
                    .setSaddr(ByteBuffer.wrap(send ? NODE : PEER)).setDaddr(ByteBuffer.wrap(send ? PEER : NODE))
                    .setSport(send ? 40000 : 80).setDport(send ? 80 : 40000).setSeq(1000 + i).setAckSeq(7 * i)
                    .setFlags(0x18).build(), e);
            assertEquals(new SegmentKey(e.getSeq(), e.getAckSeq(), e.getFlags()), keys.deserialize(r.topic(), r.key()));
            assertEquals(SegmentPartitioning.partition(SegmentPartitioning.key(e.getSeq(), e.getAckSeq(),
                    e.getFlags()), 3), r.partition());
        }
    }

    /** An Ethernet frame of an IPv4 TCP segment without payload. */
    private static byte[] frame(byte[] src, byte[] dst, long seq, long ack, int flags) {
        boolean fromNode = Arrays.equals(src, NODE);
        return ByteBuffer.allocate(54).put(new byte[12]).putShort((short) 0x0800)
                .put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0x40000000).put((byte) 64).put((byte) 6)
                .putShort((short) 0).put(src).put(dst)
                .putShort((short) (fromNode ? 40000 : 80)).putShort((short) (fromNode ? 80 : 40000))
                .putInt((int) seq).putInt((int) ack).put((byte) 0x50).put((byte) flags).putShort((short) 65535)
                .putInt(0).array();
    }
}
