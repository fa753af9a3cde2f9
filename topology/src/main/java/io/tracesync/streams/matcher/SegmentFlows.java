package io.tracesync.streams.matcher;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The flows seen under one segment key (usually one; several when connections share sequence numbers), and their
 * binary form in the matcher's store. Layout version 1:
 * <pre>
 * version:u8 n:u16 { flags:u8(saddr|daddr|send|recv|matched) [saddr] [daddr] sport:i32 dport:i32 generation:i64
 *                    [send: node:utf ts:i64] [recv: node:utf ts:i64] }*n
 * </pre>
 */
final class SegmentFlows {

    private static final byte VERSION = 1;

    final List<Flow> flows;

    SegmentFlows(List<Flow> flows) {
        this.flows = flows;
    }

    static Serde<SegmentFlows> serde() {
        return Serdes.serdeFrom((topic, v) -> v == null ? null : v.encode(),
                (topic, b) -> b == null ? null : decode(b));
    }

    byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + 48 * flows.size());
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            out.writeShort(flows.size());
            for (Flow f : flows) {
                out.writeByte((f.saddr != null ? 1 : 0) | (f.daddr != null ? 2 : 0) | (f.send != null ? 4 : 0)
                        | (f.recv != null ? 8 : 0) | (f.matched ? 16 : 0));
                writeBytes(out, f.saddr);
                writeBytes(out, f.daddr);
                out.writeInt(f.sport);
                out.writeInt(f.dport);
                out.writeLong(f.generation);
                writeSighting(out, f.send);
                writeSighting(out, f.recv);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SegmentFlows decode(byte[] b) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown matcher state version " + version);
            }
            int n = in.readUnsignedShort();
            List<Flow> flows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int flags = in.readByte();
                byte[] saddr = (flags & 1) != 0 ? readBytes(in) : null;
                byte[] daddr = (flags & 2) != 0 ? readBytes(in) : null;
                Flow f = new Flow(saddr, daddr, in.readInt(), in.readInt(), in.readLong());
                f.send = (flags & 4) != 0 ? new Sighting(in.readUTF(), in.readLong()) : null;
                f.recv = (flags & 8) != 0 ? new Sighting(in.readUTF(), in.readLong()) : null;
                f.matched = (flags & 16) != 0;
                flows.add(f);
            }
            return new SegmentFlows(flows);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated matcher state", e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        if (b != null) {
            out.writeByte(b.length);
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readUnsignedByte()];
        in.readFully(b);
        return b;
    }

    private static void writeSighting(DataOutputStream out, Sighting s) throws IOException {
        if (s != null) {
            out.writeUTF(s.node());
            out.writeLong(s.tsNs());
        }
    }
}
