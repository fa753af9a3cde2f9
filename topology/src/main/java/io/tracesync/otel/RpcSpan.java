package io.tracesync.otel;

import java.util.Objects;

/**
 * The half of a remote call one host recorded: a CLIENT span (the caller's) or a SERVER span (the callee's, whose
 * parent is the client span), with its host and its start and end in that host's clock (Unix ns). Ids are
 * lowercase hex: 32 digits for the trace, 16 for spans; {@code parentSpanId} is empty for a root span.
 */
public record RpcSpan(String traceId, String spanId, String parentSpanId, Kind kind, String host, long startNs,
        long endNs) {

    public enum Kind { CLIENT, SERVER }

    public RpcSpan {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(parentSpanId, "parentSpanId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(host, "host");
        if (traceId.length() != 32 || spanId.length() != 16 || !(parentSpanId.isEmpty()
                || parentSpanId.length() == 16)) {
            throw new IllegalArgumentException("trace id must have 32 hex digits, span ids 16: " + traceId + "/"
                    + spanId + "/" + parentSpanId);
        }
        if (endNs < startNs) {
            throw new IllegalArgumentException("span " + spanId + " ends before it starts");
        }
    }

    /** The client span id of the call this half belongs to: its own for a client, its parent's for a server. */
    public String callId() {
        return kind == Kind.CLIENT ? spanId : parentSpanId;
    }
}
