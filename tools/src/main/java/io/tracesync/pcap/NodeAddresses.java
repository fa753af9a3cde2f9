package io.tracesync.pcap;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which addresses of a capture belong to the capturing node. Named ones are taken as they are; otherwise the node's
 * address is inferred as the one that talks with the most distinct peers, which must be strictly more than any other
 * address does: in a capture of one node every conversation has the node on one side, so with two peers or more its
 * address stands out. A capture of a single conversation (two addresses, one peer each) cannot tell and is an error.
 */
public final class NodeAddresses {

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d"
            + "|1\\d\\d|[1-9]?\\d)){3}");

    private final Map<String, Set<String>> peers = new HashMap<>();

    /** Records one segment's conversation. */
    public void see(TcpSegment s) {
        String a = text(s.saddr());
        String b = text(s.daddr());
        peers.computeIfAbsent(a, k -> new HashSet<>()).add(b);
        peers.computeIfAbsent(b, k -> new HashSet<>()).add(a);
    }

    /** The node's address inferred from the conversations seen (at least one); the exception says why it cannot be. */
    public String infer() {
        int most = peers.values().stream().mapToInt(Set::size).max().orElseThrow();
        Set<String> top = new TreeSet<>();
        peers.forEach((a, p) -> {
            if (p.size() == most) {
                top.add(a);
            }
        });
        if (top.size() > 1) {
            throw new IllegalArgumentException("cannot tell the node's address: " + String.join(", ", top)
                    + " each talk with " + most + " peer(s); name it with --address");
        }
        return top.iterator().next();
    }

    /** An address's text as {@link #text} writes it; an {@link IllegalArgumentException} if it is none. */
    public static String parse(String literal) {
        String s = literal.strip();
        if (!IPV4.matcher(s).matches() && !(s.indexOf(':') >= 0 && s.matches("[0-9A-Fa-f:.]+"))) {
            throw new IllegalArgumentException("'" + literal + "' is not an IPv4 or IPv6 address");
        }
        try {
            return InetAddress.getByName(s).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + literal + "' is not an IPv4 or IPv6 address");
        }
    }

    /** An address in network byte order as text (IPv6 uncompressed, as {@link InetAddress} prints it). */
    public static String text(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Every address seen, sorted. */
    public List<String> seen() {
        return List.copyOf(new TreeSet<>(peers.keySet()));
    }
}
