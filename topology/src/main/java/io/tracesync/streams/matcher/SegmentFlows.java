package io.tracesync.streams.matcher;

import io.tracesync.core.matching.PacketFlow.Sighting;
import io.tracesync.core.matching.PacketFlow;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The flows seen under one segment key in one generation (usually one; several when connections share sequence
 * numbers), and their binary form in the matcher's store. Layout version 2 (version 1, of the key-value store
 * before generations were window segments, also held each flow's generation):
 * <pre>
 * version:u8 n:u16 { flags:u8(saddr|daddr|send|recv|matched) [saddr] [daddr] sport:i32 dport:i32
 *                    [send: node:utf ts:i64] [recv: node:utf ts:i64] }*n
 * </pre>
 */
final class SegmentFlows {

    private static final byte VERSION = 2;

    final List<PacketFlow> flows;

    SegmentFlows(List<PacketFlow> flows) {
        this.flows = flows;
    }

    static Serde<SegmentFlows> serde() {
        return Serdes.serdeFrom((topic, v) -> v == null ? null : v.encode(),
                (topic, b) -> b == null ? null : decode(b));
    }

    /**
     * The layout above, byte for byte what {@link DataOutputStream} writes (big-endian, node names in modified
     * UTF-8), into one array sized first: the stream's synchronized single-byte writes cost more than the rest of
     * writing back the matcher's store.
     */
    byte[] encode() {
        int size = 3;
        for (PacketFlow f : flows) {
            size += 1 + length(f.saddr()) + length(f.daddr()) + 8 + length(f.send()) + length(f.recv());
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION);
        out.putShort((short) flows.size());
        for (PacketFlow f : flows) {
            out.put((byte) ((f.saddr() != null ? 1 : 0) | (f.daddr() != null ? 2 : 0) | (f.send() != null ? 4 : 0)
                    | (f.recv() != null ? 8 : 0) | (f.matched() ? 16 : 0)));
            putBytes(out, f.saddr());
            putBytes(out, f.daddr());
            out.putInt(f.sport());
            out.putInt(f.dport());
            putSighting(out, f.send());
            putSighting(out, f.recv());
        }
        return out.array();
    }

    static SegmentFlows decode(byte[] b) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown matcher state version " + version);
            }
            int n = in.readUnsignedShort();
            List<PacketFlow> flows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int flags = in.readByte();
                byte[] saddr = (flags & 1) != 0 ? readBytes(in) : null;
                byte[] daddr = (flags & 2) != 0 ? readBytes(in) : null;
                int sport = in.readInt();
                int dport = in.readInt();
                Sighting send = (flags & 4) != 0 ? new Sighting(in.readUTF(), in.readLong()) : null;
                Sighting recv = (flags & 8) != 0 ? new Sighting(in.readUTF(), in.readLong()) : null;
                flows.add(new PacketFlow(saddr, daddr, sport, dport, send, recv, (flags & 16) != 0));
            }
            return new SegmentFlows(flows);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated matcher state", e);
        }
    }

    private static int length(byte[] b) {
        return b == null ? 0 : 1 + b.length;
    }

    private static void putBytes(ByteBuffer out, byte[] b) {
        if (b != null) {
            out.put((byte) b.length);
            out.put(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readUnsignedByte()];
        in.readFully(b);
        return b;
    }

    private static int length(Sighting s) {
        return s == null ? 0 : 2 + utfLength(s.node()) + 8;
    }

    private static void putSighting(ByteBuffer out, Sighting s) {
        if (s != null) {
            String node = s.node();
            out.putShort((short) utfLength(node));
            for (int i = 0; i < node.length(); i++) {
                char c = node.charAt(i);
                if (c >= 0x0001 && c <= 0x007F) {
                    out.put((byte) c);
                } else if (c <= 0x07FF) {
                    out.put((byte) (0xC0 | (c >> 6))).put((byte) (0x80 | (c & 0x3F)));
                } else {
                    out.put((byte) (0xE0 | (c >> 12))).put((byte) (0x80 | ((c >> 6) & 0x3F)))
                            .put((byte) (0x80 | (c & 0x3F)));
                }
            }
            out.putLong(s.tsNs());
        }
    }

    /** Bytes of s in modified UTF-8 ({@link DataOutputStream#writeUTF}); node names are far below its 65,535. */
    private static int utfLength(String s) {
        int n = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x0001 || c > 0x007F) {
                n += c <= 0x07FF ? 1 : 2;
            }
        }
        if (n > 65535) {
            throw new IllegalArgumentException("node name of " + n + " bytes in modified UTF-8: at most 65,535");
        }
        return n;
    }
}
