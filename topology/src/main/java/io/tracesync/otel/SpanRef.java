package io.tracesync.otel;

import java.util.Objects;

/** A span as a parent id or a link names it: its trace id (32 lowercase hex digits) and span id (16). */
public record SpanRef(String traceId, String spanId) {

    public SpanRef {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        if (traceId.length() != 32 || spanId.length() != 16) {
            throw new IllegalArgumentException("trace id must have 32 hex digits, span ids 16: " + traceId + "/"
                    + spanId);
        }
    }
}
