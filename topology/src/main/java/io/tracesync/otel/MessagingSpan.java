package io.tracesync.otel;

import java.util.List;
import java.util.Objects;

/**
 * One end of messages through a broker, as the OpenTelemetry messaging semantic conventions trace them: a PRODUCER
 * span, within which a message was sent ("create" or "send"), or a CONSUMER span, within which messages were
 * received ("receive", a poll) or handed to the application ("process"). Host, times and ids as in
 * {@link RpcSpan}; {@code links} are the span's links.
 */
public record MessagingSpan(String traceId, String spanId, String parentSpanId, Kind kind, String host, long startNs,
        long endNs, List<SpanRef> links) {

    public enum Kind { PRODUCER, CONSUMER }

    public MessagingSpan {
        new SpanRef(traceId, spanId); // checks both ids
        Objects.requireNonNull(parentSpanId, "parentSpanId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(host, "host");
        if (!(parentSpanId.isEmpty() || parentSpanId.length() == 16)) {
            throw new IllegalArgumentException("parent span id must have 16 hex digits: " + parentSpanId);
        }
        if (endNs < startNs) {
            throw new IllegalArgumentException("span " + spanId + " ends before it starts");
        }
        links = List.copyOf(links);
    }

    /**
     * The producer spans of the messages a CONSUMER span received: its links, one per message (a batch receive, or
     * processing linked to the creation context), or, without links, its parent (a consumer span created as a
     * child of the message's context). The conventions allow both ("Messaging spans", Trace structure: "Context
     * propagation"). A link or parent that is no producer span finds no other half. None for a PRODUCER span.
     */
    public List<SpanRef> producers() {
        if (kind == Kind.PRODUCER) {
            return List.of();
        }
        if (!links.isEmpty()) {
            return links;
        }
        return parentSpanId.isEmpty() ? List.of() : List.of(new SpanRef(traceId, parentSpanId));
    }
}
