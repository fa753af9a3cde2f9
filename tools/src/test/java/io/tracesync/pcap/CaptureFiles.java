package io.tracesync.pcap;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Consumer;

/** Writes capture files for tests: pcap and pcapng in either byte order, frames of TCP segments on a link type. */
public final class CaptureFiles {

    private CaptureFiles() {
    }

    /** The file formats written. */
    public enum Format {
        PCAP_MICROS_LE, PCAP_MICROS_BE, PCAP_NANOS_LE, PCAP_NANOS_BE, PCAPNG_LE, PCAPNG_BE;

        ByteOrder order() {
            return name().endsWith("LE") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        }
    }

    /** A packet: its timestamp (ns) and its frame. */
    public record Packet(long tsNs, byte[] frame) {
    }

    /** A whole file; pcapng with nanosecond if_tsresol, a name resolution and a simple packet block besides. */
    public static byte[] write(Format format, int linkType, List<Packet> packets) {
        ByteBuffer b = ByteBuffer.allocate(packets.stream().mapToInt(p -> p.frame().length + 64).sum() + 1024)
                .order(format.order());
        if (format == Format.PCAPNG_LE || format == Format.PCAPNG_BE) {
            block(b, 0x0A0D0D0A, x -> x.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1));
            block(b, 1, x -> x.putShort((short) linkType).putShort((short) 0).putInt(65535)
                    .putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3])
                    .putShort((short) 0).putShort((short) 0));
            block(b, 4, x -> x.putShort((short) 0).putShort((short) 0));
            for (Packet p : packets) {
                block(b, 6, x -> {
                    x.putInt(0).putInt((int) (p.tsNs() >>> 32)).putInt((int) p.tsNs())
                            .putInt(p.frame().length).putInt(p.frame().length).put(p.frame());
                    pad(x, p.frame().length);
                });
            }
            block(b, 3, x -> x.putInt(4).put(new byte[4]));
        } else {
            boolean nanos = format == Format.PCAP_NANOS_LE || format == Format.PCAP_NANOS_BE;
            b.putInt(nanos ? 0xA1B23C4D : 0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                    .putInt(65535).putInt(linkType);
            for (Packet p : packets) {
                long s = p.tsNs() / 1_000_000_000L;
                long frac = p.tsNs() % 1_000_000_000L;
                b.putInt((int) s).putInt((int) (nanos ? frac : frac / 1000)).putInt(p.frame().length)
                        .putInt(p.frame().length).put(p.frame());
            }
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static void block(ByteBuffer b, int type, Consumer<ByteBuffer> body) {
        int start = b.position();
        b.putInt(type).putInt(0);
        body.accept(b);
        int length = b.position() - start + 4;
        b.putInt(length);
        b.putInt(start + 4, length);
    }

    private static void pad(ByteBuffer b, int n) {
        b.put(new byte[(4 - n % 4) % 4]);
    }

    /** An IPv4 or IPv6 packet (by the addresses' form) holding a TCP segment with {@code payload} zero bytes. */
    public static byte[] tcp(String src, String dst, int sport, int dport, long seq, long ack, int flags,
            int payload) {
        byte[] s = address(src);
        byte[] d = address(dst);
        ByteBuffer t = ByteBuffer.allocate(20 + payload);
        t.putShort((short) sport).putShort((short) dport).putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags).putShort((short) 65535).putInt(0);
        byte[] segment = t.array();
        ByteBuffer ip;
        if (s.length == 4) {
            ip = ByteBuffer.allocate(20 + segment.length);
            ip.put((byte) 0x45).put((byte) 0).putShort((short) (20 + segment.length)).putInt(0x40000000)
                    .put((byte) 64).put((byte) 6).putShort((short) 0).put(s).put(d);
        } else {
            ip = ByteBuffer.allocate(40 + segment.length);
            ip.putInt(0x60000000).putShort((short) segment.length).put((byte) 6).put((byte) 64).put(s).put(d);
        }
        return ip.put(segment).array();
    }

    /** {@code ip} behind the header of a link type: Ethernet (1), SLL (113), SLL2 (276) or raw (101). */
    public static byte[] frame(int linkType, byte[] ip) {
        int etherType = (ip[0] & 0xF0) == 0x60 ? 0x86DD : 0x0800;
        ByteBuffer f = switch (linkType) {
            case 1 -> ByteBuffer.allocate(14 + ip.length).put(new byte[12]).putShort((short) etherType);
            case 113 -> ByteBuffer.allocate(16 + ip.length).putShort((short) 4).putShort((short) 1)
                    .putShort((short) 6).put(new byte[8]).putShort((short) etherType);
            case 276 -> ByteBuffer.allocate(20 + ip.length).putShort((short) etherType).putShort((short) 0)
                    .putInt(2).putShort((short) 1).put((byte) 4).put((byte) 6).put(new byte[8]);
            case 101 -> ByteBuffer.allocate(ip.length);
            default -> throw new IllegalArgumentException("link type " + linkType);
        };
        return f.put(ip).array();
    }

    /** An address literal in network byte order. */
    public static byte[] address(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
