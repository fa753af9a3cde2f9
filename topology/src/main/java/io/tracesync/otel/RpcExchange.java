package io.tracesync.otel;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import java.util.List;

/**
 * One remote call seen from both hosts: the request client→server (client start = send, server start = receive)
 * and the response server→client (server end = send, client end = receive).
 */
public record RpcExchange(RpcSpan client, RpcSpan server) {

    public RpcExchange {
        if (client.kind() != RpcSpan.Kind.CLIENT || server.kind() != RpcSpan.Kind.SERVER) {
            throw new IllegalArgumentException("an exchange is a CLIENT span and its SERVER child");
        }
        if (client.host().equals(server.host())) {
            throw new IllegalArgumentException("client and server on the same host " + client.host());
        }
    }

    public SendReceive request() {
        return new SendReceive(client.host(), client.startNs(), server.host(), server.startNs());
    }

    public SendReceive response() {
        return new SendReceive(server.host(), server.endNs(), client.host(), client.endNs());
    }

    /** The four trace events (request send and receive, response send and receive) the matcher pairs into two. */
    public List<TraceEvent> traceEvents() {
        return List.of(
                SyntheticSegment.send(client, SyntheticSegment.Direction.REQUEST, client.startNs()),
                SyntheticSegment.receive(server, SyntheticSegment.Direction.REQUEST, server.startNs()),
                SyntheticSegment.send(server, SyntheticSegment.Direction.RESPONSE, server.endNs()),
                SyntheticSegment.receive(client, SyntheticSegment.Direction.RESPONSE, client.endNs()));
    }
}
