package io.tracesync.lttng;

import io.tracesync.avro.Direction;
import io.tracesync.avro.TraceEvent;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns one node's LTTng kernel events into the packet events tracesync matches, for the two layouts of the
 * kernel tracer:
 * <ul>
 *   <li>(a) the socket-level events of the lttng-modules 2.x network addon (Jabbarifar 2013 §3.6.1, and Trace
 *   Compass' TCP matching): {@code inet_sock_local_out} (a send) and {@code inet_sock_local_in} (a receive) carry
 *   the TCP {@code seq}, {@code ack_seq} and a 16-bit {@code flags} word, and the socket pointer {@code sk}; the
 *   connection's addresses and ports come from an earlier {@code inet_connect} or {@code inet_accept} on that
 *   socket (its own side first), follow {@code inet_sock_clone} and end with {@code inet_sock_delete}. A socket
 *   never seen connecting gives an event without addresses and ports (matched on seq:ack_seq:flags alone);</li>
 *   <li>(b) the device-level events {@code net_dev_queue} (a send) and {@code netif_receive_skb} or
 *   {@code net_if_receive_skb} (a receive) with the packet's IPv4/IPv6 and TCP headers copied in
 *   ({@code network_header}, lttng-modules 2.7 and later); packets without a TCP header are not packet events.</li>
 * </ul>
 * Timestamps are the node's own clock in ns: the clock value in cycles scaled by the clock's frequency, without
 * the clock's offset (an estimate of the epoch the node made itself, which tracesync is to find). Packets of a
 * node to itself (loopback addresses, or the same address at both ends) are no packet events: the application
 * would refuse their receives as a node's receive of its own send.
 */
public final class PacketDecoder {

    private static final long GHZ = 1_000_000_000L;

    private final String node;
    private final long frequency;
    private final Map<Long, Connection> sockets = new HashMap<>();

    /** A connection seen from its own socket: local address and port first. */
    private record Connection(byte[] local, byte[] remote, int localPort, int remotePort) {
    }

    /** Events of {@code node}, whose clock runs at {@code frequency} Hz. */
    public PacketDecoder(String node, long frequency) {
        if (frequency <= 0) {
            throw new IllegalArgumentException("clock frequency " + frequency + " Hz");
        }
        this.node = node;
        this.frequency = frequency;
    }

    /** The packet event of {@code line}, or null for any other event; {@link PrettyLine.BadLine} if malformed. */
    public TraceEvent decode(PrettyLine line) throws PrettyLine.BadLine {
        return switch (line.event()) {
            case "inet_connect", "inet_accept" -> {
                sockets.put(number(line, "sk"), new Connection(ipv4(number(line, "saddr")),
                        ipv4(number(line, "daddr")), port(line, "sport"), port(line, "dport")));
                yield null;
            }
            case "inet_sock_clone" -> {
                Connection c = sockets.get(number(line, "osk"));
                if (c != null) {
                    sockets.put(number(line, "nsk"), c);
                }
                yield null;
            }
            case "inet_sock_delete" -> {
                sockets.remove(number(line, "sk"));
                yield null;
            }
            case "inet_sock_local_out" -> socketEvent(line, Direction.SEND);
            case "inet_sock_local_in" -> socketEvent(line, Direction.RECV);
            case "net_dev_queue" -> deviceEvent(line, Direction.SEND);
            case "netif_receive_skb", "net_if_receive_skb" -> deviceEvent(line, Direction.RECV);
            default -> null;
        };
    }

    /** Layout (a). */
    private TraceEvent socketEvent(PrettyLine line, Direction direction) throws PrettyLine.BadLine {
        TraceEvent.Builder e = event(line, direction, number(line, "seq"), number(line, "ack_seq"),
                addonFlags(number(line, "flags")));
        Connection c = sockets.get(number(line, "sk"));
        if (c != null) {
            boolean send = direction == Direction.SEND;
            if (local(c.local, c.remote)) {
                return null;
            }
            e.setSaddr(ByteBuffer.wrap(send ? c.local : c.remote)).setDaddr(ByteBuffer.wrap(send ? c.remote : c.local))
                    .setSport(send ? c.localPort : c.remotePort).setDport(send ? c.remotePort : c.localPort);
        }
        return e.build();
    }

    /** Layout (b); null unless the packet has a TCP header. */
    private TraceEvent deviceEvent(PrettyLine line, Direction direction) throws PrettyLine.BadLine {
        String seq = line.find("network_header", "seq");
        if (seq == null) {
            return null;
        }
        String sport = line.find("network_header", "source_port");
        String dport = line.find("network_header", "dest_port");
        byte[] saddr = address(line, "saddr");
        byte[] daddr = address(line, "daddr");
        if (local(saddr, daddr)) {
            return null;
        }
        TraceEvent.Builder e = event(line, direction, number(seq, "seq"),
                number(required(line, "ack_seq"), "ack_seq"), (int) (number(required(line, "flags"), "flags") & 0xFF));
        return e.setSaddr(ByteBuffer.wrap(saddr)).setDaddr(ByteBuffer.wrap(daddr))
                .setSport(portValue(sport != null ? sport : required(line, "source"), "source_port"))
                .setDport(portValue(dport != null ? dport : required(line, "dest"), "dest_port"))
                .build();
    }

    private TraceEvent.Builder event(PrettyLine line, Direction direction, long seq, long ack, int flags)
            throws PrettyLine.BadLine {
        if (seq > 0xFFFF_FFFFL || ack > 0xFFFF_FFFFL) {
            throw new PrettyLine.BadLine(line.event() + ": seq or ack_seq is not a 32-bit sequence number");
        }
        return TraceEvent.newBuilder().setNode(node).setTsNs(nanoseconds(line.cycles())).setDirection(direction)
                .setSeq(seq).setAckSeq(ack).setFlags(flags).setSaddr(null).setDaddr(null).setSport(null)
                .setDport(null);
    }

    /** A clock value in cycles as ns (the frequency is 1 GHz for LTTng's kernel clock). */
    public long nanoseconds(long cycles) {
        return frequency == GHZ ? cycles : BigInteger.valueOf(cycles).multiply(BigInteger.valueOf(GHZ))
                .divide(BigInteger.valueOf(frequency)).longValueExact();
    }

    /**
     * The TCP flags byte of the addon's 16-bit {@code flags} word (layout a). As recorded by lttng-modules 2.1 and
     * read by babeltrace2, the low byte holds the data offset (5..15 words) and the high byte the flags in reverse
     * bit order: a handshake reads 0x400A (SYN), 0x480A (SYN|ACK), 0x808 (ACK), then 0x1808 (PSH|ACK) and 0x8808
     * (FIN|ACK) — as seen in every event of the scp trace of docs/REAL-INPUTS.md.
     */
    static int addonFlags(long word) throws PrettyLine.BadLine {
        int offset = (int) (word & 0xFF);
        if (word > 0xFFFF || offset < 5 || offset > 15) {
            throw new PrettyLine.BadLine(String.format("flags word 0x%X has no TCP data offset (5..15) in its low "
                    + "byte", word));
        }
        return Integer.reverse((int) (word >>> 8)) >>> 24;
    }

    /** A packet that never leaves its node: to itself, or between loopback addresses. */
    private static boolean local(byte[] saddr, byte[] daddr) {
        return Arrays.equals(saddr, daddr) || loopback(saddr) || loopback(daddr);
    }

    /** 127.0.0.0/8 or ::1. */
    private static boolean loopback(byte[] a) {
        if (a.length == 4) {
            return a[0] == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[15] == 1;
    }

    private static String required(PrettyLine line, String leaf) throws PrettyLine.BadLine {
        String v = line.find("network_header", leaf);
        if (v == null) {
            throw new PrettyLine.BadLine(line.event() + ": TCP header without " + leaf);
        }
        return v;
    }

    /** An IPv4 address (4 byte elements, or one integer) or IPv6 address (8 16-bit elements) of the IP header. */
    private static byte[] address(PrettyLine line, String leaf) throws PrettyLine.BadLine {
        String whole = line.find("network_header", leaf);
        if (whole != null) {
            return ipv4(number(whole, leaf));
        }
        int n = 0;
        while (line.find("network_header", leaf + "[" + n + "]") != null) {
            n++;
        }
        if (n != 4 && n != 8) {
            throw new PrettyLine.BadLine(line.event() + ": IP header " + leaf + " has " + n
                    + " elements, neither IPv4 (4 bytes) nor IPv6 (8 words)");
        }
        ByteBuffer b = ByteBuffer.allocate(n == 4 ? 4 : 16);
        for (int i = 0; i < n; i++) {
            long v = number(line.find("network_header", leaf + "[" + i + "]"), leaf);
            if (n == 4) {
                b.put((byte) v);
            } else {
                b.putShort((short) v);
            }
        }
        return b.array();
    }

    private static byte[] ipv4(long v) {
        return ByteBuffer.allocate(4).putInt((int) v).array();
    }

    private static long number(PrettyLine line, String name) throws PrettyLine.BadLine {
        String v = line.field(name);
        if (v == null) {
            throw new PrettyLine.BadLine(line.event() + " without field " + name);
        }
        return number(v, name);
    }

    /** An unsigned integer printed in decimal or as {@code 0x} hexadecimal. */
    private static long number(String v, String name) throws PrettyLine.BadLine {
        try {
            return v.startsWith("0x") || v.startsWith("0X") ? Long.parseUnsignedLong(v.substring(2), 16)
                    : Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            throw new PrettyLine.BadLine(name + " '" + v + "' is not an unsigned integer");
        }
    }

    private static int port(PrettyLine line, String name) throws PrettyLine.BadLine {
        return portValue(line.field(name), name);
    }

    private static int portValue(String v, String name) throws PrettyLine.BadLine {
        if (v == null) {
            throw new PrettyLine.BadLine("no field " + name);
        }
        long p = number(v, name);
        if (p > 0xFFFF) {
            throw new PrettyLine.BadLine(name + " " + p + " is not a port");
        }
        return (int) p;
    }
}
