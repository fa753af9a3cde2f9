package io.tracesync.pcap;

import java.util.Arrays;

/**
 * The parts of a captured TCP segment that a trace event keeps: addresses in network byte order (4 or 16 bytes),
 * ports, sequence and acknowledgment numbers and the flags byte, at the capture's timestamp.
 */
public record TcpSegment(long tsNs, byte[] saddr, byte[] daddr, int sport, int dport, long seq, long ack,
        int flags) {

    /** Link types read: Ethernet, Linux cooked v1 and v2, raw IP (the two numbers in use for it), IPv4, IPv6. */
    static final int ETHERNET = 1;
    static final int RAW = 101;
    static final int RAW_OPENBSD = 12;
    static final int SLL = 113;
    static final int IPV4 = 228;
    static final int IPV6 = 229;
    static final int SLL2 = 276;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;
    private static final int TCP = 6;

    /**
     * The TCP segment in {@code f}, or null for anything else (ARP, UDP, a fragment after the first). A link type
     * not read, or a TCP packet captured too short for its header, is an error.
     */
    public static TcpSegment of(Frame f) throws CaptureFormatException {
        byte[] b = f.data();
        return switch (f.linkType()) {
            case ETHERNET -> ethernet(f, b);
            case SLL -> b.length < 16 ? null : ip(f, b, u16(b, 14), 16);
            case SLL2 -> b.length < 20 ? null : ip(f, b, u16(b, 0), 20);
            case RAW, RAW_OPENBSD -> b.length < 1 ? null
                    : ip(f, b, (b[0] & 0xF0) == 0x60 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4, 0);
            case IPV4 -> ip(f, b, ETHERTYPE_IPV4, 0);
            case IPV6 -> ip(f, b, ETHERTYPE_IPV6, 0);
            default -> throw new CaptureFormatException("packet " + f.number() + ": link type " + f.linkType()
                    + " is not read (Ethernet 1, Linux cooked SLL 113 and SLL2 276, raw IP 101, 228, 229)");
        };
    }

    private static TcpSegment ethernet(Frame f, byte[] b) throws CaptureFormatException {
        int at = 12;
        while (b.length >= at + 2 && (u16(b, at) == ETHERTYPE_VLAN || u16(b, at) == ETHERTYPE_QINQ)) {
            at += 4;
        }
        return b.length < at + 2 ? null : ip(f, b, u16(b, at), at + 2);
    }

    private static TcpSegment ip(Frame f, byte[] b, int etherType, int at) throws CaptureFormatException {
        if (etherType == ETHERTYPE_IPV4) {
            if (b.length < at + 20 || (b[at] & 0xF0) != 0x40 || (b[at + 9] & 0xFF) != TCP
                    || (u16(b, at + 6) & 0x1FFF) != 0) {
                return null;
            }
            int header = (b[at] & 0x0F) * 4;
            return tcp(f, b, Arrays.copyOfRange(b, at + 12, at + 16), Arrays.copyOfRange(b, at + 16, at + 20),
                    at + header);
        }
        if (etherType == ETHERTYPE_IPV6) {
            if (b.length < at + 40 || (b[at] & 0xF0) != 0x60) {
                return null;
            }
            byte[] src = Arrays.copyOfRange(b, at + 8, at + 24);
            byte[] dst = Arrays.copyOfRange(b, at + 24, at + 40);
            int next = b[at + 6] & 0xFF;
            int h = at + 40;
            while (next != TCP) {
                if (b.length < h + 8) {
                    return null;
                }
                switch (next) {
                    case 0, 43, 60 -> {
                        next = b[h] & 0xFF;
                        h += ((b[h + 1] & 0xFF) + 1) * 8;
                    }
                    case 44 -> {
                        if ((u16(b, h + 2) & 0xFFF8) != 0) {
                            return null;
                        }
                        next = b[h] & 0xFF;
                        h += 8;
                    }
                    default -> {
                        return null;
                    }
                }
            }
            return tcp(f, b, src, dst, h);
        }
        return null;
    }

    private static TcpSegment tcp(Frame f, byte[] b, byte[] src, byte[] dst, int at) throws CaptureFormatException {
        if (b.length < at + 14) {
            throw new CaptureFormatException("packet " + f.number() + ": only " + b.length + " bytes captured, too few"
                    + " for its TCP header (a snap length of at least 128 bytes keeps it)");
        }
        return new TcpSegment(f.tsNs(), src, dst, u16(b, at), u16(b, at + 2), u32(b, at + 4), u32(b, at + 8),
                b[at + 13] & 0xFF);
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static long u32(byte[] b, int at) {
        return ((long) u16(b, at) << 16 | u16(b, at + 2)) & 0xFFFF_FFFFL;
    }
}
