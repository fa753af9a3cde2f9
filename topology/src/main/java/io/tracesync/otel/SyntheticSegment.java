package io.tracesync.otel;

import io.tracesync.avro.TraceEvent;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The segment a span's message is given so that the matcher pairs it exactly. A call's message is named by its trace
 * id, the client span id of its call and its direction; both hosts' halves know all three (the server span's parent
 * is the client span). Encoding:
 * <pre>
 * seq     = client span id, high 32 bits     flags = 0x01 request, 0x02 response
 * ack_seq = client span id, low 32 bits      saddr = trace id (16 bytes, an "IPv6 address")
 * daddr, sport, dport, length: null
 * </pre>
 * The matching key {@code seq:ack_seq:flags} thus holds span id and direction, and the matcher tells flows under one
 * key apart by saddr, the trace id: request and response never share a key, two calls share a flow only if trace
 * and span ids both coincide.
 * <p>
 * A message through a broker ({@link MessageExchange}) is named by its producer span and its consumer span, since
 * one producer span may reach several consumers (each a flow of its own; the matcher keeps only the first receive
 * of a flow): seq and ack_seq hold the producer span id, flags {@code 0x04}, saddr the producer's trace id, daddr
 * the consumer span id followed by the first 8 bytes of the consumer's trace id. Only the consumer's host knows the
 * consumer span, so both events are formed from the pair.
 */
public final class SyntheticSegment {

    public enum Direction {
        REQUEST(1), RESPONSE(2), MESSAGE(4);

        final int flags;

        Direction(int flags) {
            this.flags = flags;
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private SyntheticSegment() {
    }

    static TraceEvent send(RpcSpan half, Direction d, long tsNs) {
        return event(half.host(), tsNs, io.tracesync.avro.Direction.SEND, half.traceId(), half.callId(), d, null);
    }

    static TraceEvent receive(RpcSpan half, Direction d, long tsNs) {
        return event(half.host(), tsNs, io.tracesync.avro.Direction.RECV, half.traceId(), half.callId(), d, null);
    }

    static TraceEvent messageSend(MessageExchange m) {
        return message(m, m.producer().host(), m.producer().startNs(), io.tracesync.avro.Direction.SEND);
    }

    static TraceEvent messageReceive(MessageExchange m) {
        return message(m, m.consumer().host(), m.consumer().endNs(), io.tracesync.avro.Direction.RECV);
    }

    private static TraceEvent message(MessageExchange m, String node, long tsNs, io.tracesync.avro.Direction dir) {
        byte[] consumer = HEX.parseHex(m.consumer().spanId() + m.consumer().traceId().substring(0, 16));
        return event(node, tsNs, dir, m.producer().traceId(), m.producer().spanId(), Direction.MESSAGE, consumer);
    }

    private static TraceEvent event(String node, long tsNs, io.tracesync.avro.Direction direction, String traceId,
            String spanId, Direction d, byte[] daddr) {
        long id = HexFormat.fromHexDigitsToLong(spanId);
        return TraceEvent.newBuilder().setNode(node).setTsNs(tsNs).setDirection(direction)
                .setSaddr(ByteBuffer.wrap(HEX.parseHex(traceId)))
                .setDaddr(daddr == null ? null : ByteBuffer.wrap(daddr))
                .setSeq(id >>> 32).setAckSeq(id & 0xffff_ffffL).setFlags(d.flags).build();
    }
}
