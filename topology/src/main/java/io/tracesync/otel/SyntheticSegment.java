package io.tracesync.otel;

import io.tracesync.avro.TraceEvent;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The segment a span's message is given so that the matcher pairs it exactly. A message is named by its trace id,
 * the client span id of its call and its direction; both hosts' halves know all three (the server span's parent
 * is the client span). Encoding:
 * <pre>
 * seq     = client span id, high 32 bits     flags = 0x01 request, 0x02 response
 * ack_seq = client span id, low 32 bits      saddr = trace id (16 bytes, an "IPv6 address")
 * daddr, sport, dport, length: null
 * </pre>
 * The matching key {@code seq:ack_seq:flags} thus holds span id and direction, and the matcher tells flows under one
 * key apart by saddr, the trace id: request and response never share a key, two calls share a flow only if trace
 * and span ids both coincide.
 */
public final class SyntheticSegment {

    public enum Direction {
        REQUEST(1), RESPONSE(2);

        final int flags;

        Direction(int flags) {
            this.flags = flags;
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private SyntheticSegment() {
    }

    static TraceEvent send(RpcSpan half, Direction d, long tsNs) {
        return event(half, d, io.tracesync.avro.Direction.SEND, tsNs);
    }

    static TraceEvent receive(RpcSpan half, Direction d, long tsNs) {
        return event(half, d, io.tracesync.avro.Direction.RECV, tsNs);
    }

    private static TraceEvent event(RpcSpan half, Direction d, io.tracesync.avro.Direction direction, long tsNs) {
        long call = HexFormat.fromHexDigitsToLong(half.callId());
        return TraceEvent.newBuilder().setNode(half.host()).setTsNs(tsNs).setDirection(direction)
                .setSaddr(ByteBuffer.wrap(HEX.parseHex(half.traceId())))
                .setSeq(call >>> 32).setAckSeq(call & 0xffff_ffffL).setFlags(d.flags).build();
    }
}
