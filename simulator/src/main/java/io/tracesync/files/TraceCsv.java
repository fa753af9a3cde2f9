package io.tracesync.files;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The per-node trace files of {@code tracesync simulate}, {@code import lttng} and {@code import pcap}, read and
 * written. Reading: {@code node,ts_ns,direction,saddr,daddr,sport,
 * dport,seq,ack,flags} (docs/SIMULATOR.md), a first line equal to that header and blank lines skipped. Each line
 * becomes the {@link TraceEvent} a tracer would write, or the reason it cannot: the checks of the application's
 * own {@code check} step (docs/STREAMS.md), so that what is imported is never a dead letter for its form. Empty
 * address and port fields are absent values; flags are TCP flag letters ({@code FSRPAUEC}, e.g. {@code PA}) or the
 * flags byte as a number.
 */
public final class TraceCsv {

    public static final String HEADER = "node,ts_ns,direction,saddr,daddr,sport,dport,seq,ack,flags";

    private static final int FIELDS = 10;
    private static final String FLAG_LETTERS = "FSRPAUEC";
    private static final long MAX_TS = 1L << 62;
    /** What a node name may contain to name its topic ({@code traces.<node>}). */
    public static final Pattern NODE = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private TraceCsv() {
    }

    /**
     * One line read: its number, its length in bytes with the line end, and either its event or why it has none
     * ({@code error}); both are null for the header and blank lines.
     */
    public record Line(long number, long bytes, TraceEvent event, String error) {
    }

    /** Calls {@code sink} for every line of {@code in}. */
    public static void read(BufferedReader in, Consumer<Line> sink) throws IOException {
        long number = 0;
        String text;
        while ((text = in.readLine()) != null) {
            sink.accept(line(++number, text));
        }
    }

    /** Line {@code number} of a file, {@code text} without its line end. */
    public static Line line(long number, String text) {
        long bytes = text.length() + 1L;
        if (text.isBlank() || number == 1 && text.strip().equals(HEADER)) {
            return new Line(number, bytes, null, null);
        }
        try {
            return new Line(number, bytes, parse(text), null);
        } catch (BadField e) {
            return new Line(number, bytes, null, e.getMessage());
        }
    }

    /**
     * Appends one line, its newline included: the addresses as written (empty: absent), a negative port as
     * absent, the flags as letters or a number. The one writer of the format ({@link #format} for a
     * {@link TraceEvent}).
     */
    public static StringBuilder appendLine(StringBuilder b, String node, long tsNs, boolean send, String saddr,
            String daddr, int sport, int dport, long seq, long ack, String flags) {
        b.append(node).append(',').append(tsNs).append(',').append(send ? "SEND" : "RECV").append(',')
                .append(saddr).append(',').append(daddr).append(',');
        port(b, sport).append(',');
        port(b, dport).append(',');
        return b.append(seq).append(',').append(ack).append(',').append(flags).append('\n');
    }

    private static StringBuilder port(StringBuilder b, int port) {
        return port < 0 ? b : b.append(port);
    }

    /** The line of an event as {@link #parse} reads it back: absent addresses and ports empty, flags as letters. */
    public static String format(TraceEvent e) {
        return appendLine(new StringBuilder(96), e.getNode(), e.getTsNs(), e.getDirection() == Direction.SEND,
                address(e.getSaddr()), address(e.getDaddr()), port(e.getSport()), port(e.getDport()), e.getSeq(),
                e.getAckSeq(), flagLetters(e.getFlags())).toString();
    }

    /** TCP flags as the letters {@code FSRPAUEC} of the bits set, lowest first; {@code 0} for none. */
    static String flagLetters(int flags) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < FLAG_LETTERS.length(); i++) {
            if ((flags & 1 << i) != 0) {
                s.append(FLAG_LETTERS.charAt(i));
            }
        }
        return s.isEmpty() ? "0" : s.toString();
    }

    private static String address(ByteBuffer b) {
        if (b == null) {
            return "";
        }
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        try {
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an address of " + bytes.length + " bytes", e);
        }
    }

    private static int port(Integer p) {
        return p == null ? -1 : p;
    }

    /** The event of one line of a trace file. */
    public static TraceEvent parse(String line) throws BadField {
        String[] f = line.split(",", -1);
        if (f.length != FIELDS) {
            throw new BadField("expected " + FIELDS + " fields (" + HEADER + ") but found " + f.length + ": "
                    + abbreviate(line));
        }
        String node = f[0].strip();
        if (!NODE.matcher(node).matches()) {
            throw new BadField("node '" + abbreviate(node) + "' cannot name a topic (1 to 200 letters, digits, "
                    + "'.', '_', '-')");
        }
        long ts = number(f[1], "ts_ns", "an integer number of nanoseconds");
        if (ts < 0) {
            throw new BadField("negative ts_ns " + ts);
        }
        if (ts >= MAX_TS) {
            throw new BadField("ts_ns " + ts + " overflows (2^62 ns or more)");
        }
        return TraceEvent.newBuilder()
                .setNode(node)
                .setTsNs(ts)
                .setDirection(direction(f[2].strip()))
                .setSaddr(address(f[3], "saddr"))
                .setDaddr(address(f[4], "daddr"))
                .setSport(port(f[5], "sport"))
                .setDport(port(f[6], "dport"))
                .setSeq(sequence(f[7], "seq"))
                .setAckSeq(sequence(f[8], "ack"))
                .setFlags(flags(f[9].strip()))
                .build();
    }

    private static Direction direction(String s) throws BadField {
        return switch (s) {
            case "SEND" -> Direction.SEND;
            case "RECV" -> Direction.RECV;
            default -> throw new BadField("direction '" + abbreviate(s) + "' is neither SEND nor RECV");
        };
    }

    private static ByteBuffer address(String field, String name) throws BadField {
        String s = field.strip();
        if (s.isEmpty()) {
            return null;
        }
        byte[] bytes = s.indexOf(':') >= 0 ? ipv6(s) : ipv4(s);
        if (bytes == null) {
            throw new BadField(name + " '" + abbreviate(s) + "' is not an IPv4 or IPv6 address");
        }
        return ByteBuffer.wrap(bytes);
    }

    /** Dotted-quad IPv4, or null. */
    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 3 || !digits(parts[i])) {
                return null;
            }
            int v = Integer.parseInt(parts[i]);
            if (v > 255) {
                return null;
            }
            b[i] = (byte) v;
        }
        return b;
    }

    /** An IPv6 literal (a string with ':' is never looked up as a host name), or null. */
    private static byte[] ipv6(String s) {
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static Integer port(String field, String name) throws BadField {
        if (field.isBlank()) {
            return null;
        }
        long v = number(field, name, "a port (0..65535)");
        if (v < 0 || v > 0xFFFF) {
            throw new BadField(name + " " + v + " is not a port (0..65535)");
        }
        return (int) v;
    }

    private static long sequence(String field, String name) throws BadField {
        long v = number(field, name, "a 32-bit sequence number");
        if (v < 0 || v > 0xFFFF_FFFFL) {
            throw new BadField(name + " " + v + " is not a 32-bit sequence number");
        }
        return v;
    }

    private static int flags(String s) throws BadField {
        if (digits(s)) {
            long v = s.length() > 3 ? Long.MAX_VALUE : Long.parseLong(s);
            if (v <= 0xFF) {
                return (int) v;
            }
        } else if (!s.isEmpty() && s.chars().allMatch(c -> FLAG_LETTERS.indexOf(c) >= 0)) {
            int v = 0;
            for (char c : s.toCharArray()) {
                v |= 1 << FLAG_LETTERS.indexOf(c);
            }
            return v;
        }
        throw new BadField("flags '" + abbreviate(s) + "' are neither TCP flag letters (" + FLAG_LETTERS
                + ") nor a flags byte (0..255)");
    }

    private static long number(String field, String name, String what) throws BadField {
        String s = field.strip();
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new BadField(name + " '" + abbreviate(s) + "' is not " + what);
        }
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** Why a line has no event. */
    public static final class BadField extends Exception {
        BadField(String message) {
            super(message, null, false, false);
        }
    }
}
