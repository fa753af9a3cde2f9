package io.tracesync.otel;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Pairs each CLIENT span with its SERVER child, in whatever order they arrive, into {@link RpcExchange}s. A half
 * waits for its other one through the generation it arrived in and the next; a generation ends every
 * {@code window} spans, so at most 2·window halves wait, and those that outlive it are dropped and counted. Pairs
 * on one host (a call within a process or between processes of a host) say nothing about clocks: counted, left
 * out. A SERVER span without parent (called from outside the traced system) has no client half: counted as a
 * root. Of two halves of one kind for one call (a retried span export) the first is kept.
 */
public final class SpanPairer {

    /** What became of the spans so far. */
    public record Counts(long spans, long exchanges, long sameHost, long roots, long duplicates, long dropped,
            long pending) {
    }

    private record Waiting(RpcSpan half, long generation) {
    }

    private final long window;
    private final Consumer<RpcExchange> out;
    private final Map<String, Waiting> waiting = new HashMap<>();
    private long generation;
    private long inGeneration;
    private long spans;
    private long exchanges;
    private long sameHost;
    private long roots;
    private long duplicates;
    private long dropped;

    public SpanPairer(long window, Consumer<RpcExchange> out) {
        if (window <= 0) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.window = window;
        this.out = out;
    }

    public void accept(RpcSpan span) {
        spans++;
        if (span.kind() == RpcSpan.Kind.SERVER && span.parentSpanId().isEmpty()) {
            roots++;
        } else {
            String call = span.traceId() + span.callId();
            Waiting other = waiting.get(call);
            if (other == null) {
                waiting.put(call, new Waiting(span, generation));
            } else if (other.half().kind() == span.kind()) {
                duplicates++;
            } else {
                waiting.remove(call);
                RpcSpan client = span.kind() == RpcSpan.Kind.CLIENT ? span : other.half();
                RpcSpan server = span.kind() == RpcSpan.Kind.SERVER ? span : other.half();
                if (client.host().equals(server.host())) {
                    sameHost++;
                } else {
                    exchanges++;
                    out.accept(new RpcExchange(client, server));
                }
            }
        }
        if (++inGeneration == window) {
            inGeneration = 0;
            generation++;
            int before = waiting.size();
            waiting.values().removeIf(w -> w.generation() < generation - 1);
            dropped += before - waiting.size();
        }
    }

    /** Drops every half still waiting (the input ended), counting them. */
    public void finish() {
        dropped += waiting.size();
        waiting.clear();
    }

    public Counts counts() {
        return new Counts(spans, exchanges, sameHost, roots, duplicates, dropped, waiting.size());
    }
}
