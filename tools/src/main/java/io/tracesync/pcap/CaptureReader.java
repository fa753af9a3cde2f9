package io.tracesync.pcap;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pcap (microsecond and nanosecond magic, either byte order) and pcapng (section header, interface description,
 * enhanced, simple and obsolete packet blocks; {@code if_tsresol} and {@code if_tsoffset}) files, told apart by their
 * first four bytes. Timestamps become nanoseconds; other blocks are skipped. Simple packet blocks carry no
 * timestamp, so they are only counted ({@link #untimed}).
 */
public final class CaptureReader {

    private static final int PCAP_MICROS = 0xA1B2C3D4;
    private static final int PCAP_NANOS = 0xA1B23C4D;
    private static final int SHB = 0x0A0D0D0A;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int IDB = 1;
    private static final int OPB = 2;
    private static final int SPB = 3;
    private static final int EPB = 6;
    private static final int OPT_TSRESOL = 9;
    private static final int OPT_TSOFFSET = 14;
    /** Larger records are taken for corruption rather than packets. */
    private static final int MAX_RECORD = 1 << 26;
    private static final long NS_PER_S = 1_000_000_000L;

    private final InputStream in;
    private final byte[] word = new byte[8];
    private long offset;
    private long number;
    private long untimed;
    private boolean bigEndian;

    private CaptureReader(InputStream in) {
        this.in = in;
    }

    /** Where packets go. */
    @FunctionalInterface
    public interface Sink {
        void accept(Frame frame) throws IOException;
    }

    /** Passes every packet of {@code in} to {@code sink}; returns the count of packets without a timestamp. */
    public static long read(InputStream in, Sink sink) throws IOException {
        CaptureReader r = new CaptureReader(in);
        r.all(sink);
        return r.untimed;
    }

    private void all(Sink sink) throws IOException {
        byte[] head = new byte[4];
        if (!fill(head, 4, "file header")) {
            throw new CaptureFormatException("empty file, not a pcap or pcapng capture");
        }
        int be = u32(head, 0, true);
        int le = u32(head, 0, false);
        if (be == SHB) {
            pcapng(sink);
        } else if (be == PCAP_MICROS || be == PCAP_NANOS) {
            bigEndian = true;
            pcap(sink, be == PCAP_NANOS);
        } else if (le == PCAP_MICROS || le == PCAP_NANOS) {
            bigEndian = false;
            pcap(sink, le == PCAP_NANOS);
        } else {
            throw new CaptureFormatException(String.format("not a pcap or pcapng capture (first bytes %08x)", be));
        }
    }

    private void pcap(Sink sink, boolean nanos) throws IOException {
        byte[] h = exactly(20, "pcap file header");
        int linkType = u32(h, 16, bigEndian) & 0x0FFF_FFFF;
        byte[] rec = new byte[16];
        while (fill(rec, 16, "packet record header at byte " + offset)) {
            long start = offset - 16;
            long sec = u32(rec, 0, bigEndian) & 0xFFFF_FFFFL;
            long frac = u32(rec, 4, bigEndian) & 0xFFFF_FFFFL;
            int captured = u32(rec, 8, bigEndian);
            if (captured < 0 || captured > MAX_RECORD) {
                throw new CaptureFormatException("packet record at byte " + start + " claims "
                        + (captured & 0xFFFF_FFFFL) + " captured bytes: corrupt");
            }
            if (frac >= (nanos ? NS_PER_S : 1_000_000)) {
                throw new CaptureFormatException("packet record at byte " + start + ": fraction of a second "
                        + frac + (nanos ? " ns" : " µs") + " out of range: corrupt");
            }
            byte[] data = exactly(captured, "packet record at byte " + start);
            sink.accept(new Frame(linkType, sec * NS_PER_S + (nanos ? frac : frac * 1000), data, ++number, offset));
        }
    }

    /** Interfaces of the current section: link type and timestamp units. */
    private record Interface(int linkType, boolean binary, int exponent, long offsetS) {

        long ns(long ts) {
            if (binary) {
                return BigInteger.valueOf(ts).multiply(BigInteger.valueOf(NS_PER_S)).shiftRight(exponent)
                        .longValueExact() + offsetS * NS_PER_S;
            }
            long ns = exponent <= 9 ? Math.multiplyExact(ts, pow10(9 - exponent)) : ts / pow10(exponent - 9);
            return ns + offsetS * NS_PER_S;
        }

        private static long pow10(int n) {
            long p = 1;
            for (int i = 0; i < n; i++) {
                p *= 10;
            }
            return p;
        }
    }

    private void pcapng(Sink sink) throws IOException {
        List<Interface> interfaces = new ArrayList<>();
        int type = SHB;
        long start = 0;
        while (true) {
            byte[] lengthBytes = exactly(4, "block at byte " + start);
            if (type == SHB) {
                byte[] magic = exactly(4, "section header at byte " + start);
                if (u32(magic, 0, true) == BYTE_ORDER_MAGIC) {
                    bigEndian = true;
                } else if (u32(magic, 0, false) == BYTE_ORDER_MAGIC) {
                    bigEndian = false;
                } else {
                    throw new CaptureFormatException("section header at byte " + start + " has no byte-order magic");
                }
                interfaces.clear();
            }
            int length = u32(lengthBytes, 0, bigEndian);
            int bodyLength = length - 12 - (type == SHB ? 4 : 0);
            if (length < 12 || length % 4 != 0 || length > MAX_RECORD || bodyLength < 0) {
                throw new CaptureFormatException("block at byte " + start + " has length " + (length & 0xFFFF_FFFFL)
                        + ": corrupt");
            }
            byte[] body = exactly(bodyLength, "block at byte " + start);
            exactly(4, "block at byte " + start);
            switch (type) {
                case IDB -> interfaces.add(description(body, start));
                case EPB, OPB -> packet(type, body, interfaces, start, sink);
                case SPB -> untimed++;
                default -> {
                }
            }
            start = offset;
            if (!fill(word, 4, "block at byte " + start)) {
                return;
            }
            type = u32(word, 0, bigEndian);
        }
    }

    private Interface description(byte[] b, long start) throws CaptureFormatException {
        need(b, 8, "interface description block", start);
        int linkType = u16(b, 0);
        boolean binary = false;
        int exponent = 6;
        long offsetS = 0;
        int at = 8;
        while (at + 4 <= b.length) {
            int code = u16(b, at);
            int len = u16(b, at + 2);
            if (code == 0) {
                break;
            }
            need(b, at + 4 + len, "interface option", start);
            if (code == OPT_TSRESOL && len >= 1) {
                binary = (b[at + 4] & 0x80) != 0;
                exponent = b[at + 4] & 0x7F;
                if (!binary && exponent > 18 || binary && exponent > 62) {
                    throw new CaptureFormatException("interface description at byte " + start + ": if_tsresol "
                            + (binary ? "2^-" : "10^-") + exponent + " is not supported");
                }
            } else if (code == OPT_TSOFFSET && len >= 8) {
                offsetS = u64(b, at + 4);
            }
            at += 4 + ((len + 3) & ~3);
        }
        return new Interface(linkType, binary, exponent, offsetS);
    }

    private void packet(int type, byte[] b, List<Interface> interfaces, long start, Sink sink) throws IOException {
        String what = type == EPB ? "enhanced packet block" : "packet block";
        need(b, 20, what, start);
        int id = type == EPB ? u32(b, 0, bigEndian) : u16(b, 0);
        if (id < 0 || id >= interfaces.size()) {
            throw new CaptureFormatException(what + " at byte " + start + " names interface " + id + " of "
                    + interfaces.size() + " described");
        }
        Interface itf = interfaces.get(id);
        long ts = (u32(b, 4, bigEndian) & 0xFFFF_FFFFL) << 32 | u32(b, 8, bigEndian) & 0xFFFF_FFFFL;
        int captured = u32(b, 12, bigEndian);
        if (captured < 0 || 20 + captured > b.length) {
            throw new CaptureFormatException(what + " at byte " + start + " claims " + (captured & 0xFFFF_FFFFL)
                    + " captured bytes in a block of " + (b.length + 12) + ": corrupt");
        }
        byte[] data = new byte[captured];
        System.arraycopy(b, 20, data, 0, captured);
        long ns;
        try {
            ns = itf.ns(ts);
        } catch (ArithmeticException e) {
            throw new CaptureFormatException(what + " at byte " + start + ": timestamp " + Long.toUnsignedString(ts)
                    + " overflows nanoseconds");
        }
        sink.accept(new Frame(itf.linkType(), ns, data, ++number, offset));
    }

    private static void need(byte[] b, int n, String what, long start) throws CaptureFormatException {
        if (b.length < n) {
            throw new CaptureFormatException(what + " at byte " + start + " is too short: corrupt");
        }
    }

    /** {@code n} bytes, or an error that the file ends inside {@code what}. */
    private byte[] exactly(int n, String what) throws IOException {
        byte[] b = new byte[n];
        if (!fill(b, n, what) && n > 0) {
            throw truncated(what);
        }
        return b;
    }

    /** Reads {@code n} bytes of {@code what}; false at the end of the file before the first, an error after it. */
    private boolean fill(byte[] b, int n, String what) throws IOException {
        int got = in.readNBytes(b, 0, n);
        offset += got;
        if (got == 0 && n > 0) {
            return false;
        }
        if (got < n) {
            throw truncated(what);
        }
        return true;
    }

    private static CaptureFormatException truncated(String what) {
        return new CaptureFormatException("truncated: the file ends inside the " + what);
    }

    private int u16(byte[] b, int at) {
        int x = (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
        return bigEndian ? x : Integer.reverseBytes(x) >>> 16;
    }

    private static int u32(byte[] b, int at, boolean big) {
        int x = (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | b[at + 3] & 0xFF;
        return big ? x : Integer.reverseBytes(x);
    }

    private long u64(byte[] b, int at) {
        long hi = u32(b, at, bigEndian) & 0xFFFF_FFFFL;
        long lo = u32(b, at + 4, bigEndian) & 0xFFFF_FFFFL;
        return bigEndian ? hi << 32 | lo : lo << 32 | hi;
    }
}
