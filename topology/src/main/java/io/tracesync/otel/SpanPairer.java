package io.tracesync.otel;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Pairs each CLIENT span with its SERVER child into {@link RpcExchange}s, and each PRODUCER span with every CONSUMER
 * span naming it ({@link MessagingSpan#producers()}) into {@link MessageExchange}s, in whatever order they arrive.
 * A half — a client or server span, a producer span, a consumer span's reference to a producer — waits for its
 * other one through the generation it arrived in and the next; a generation ends every {@code window} spans, so at
 * most 2·window spans' halves wait, and those that outlive it unpaired are dropped and counted. A producer span
 * stays through its two generations even once paired: further consumers (fan-out) may still come. Pairs on one
 * host (a call or message within a process or between processes of a host) say nothing about clocks: counted,
 * left out. A SERVER span without parent (called from outside the traced system) and a CONSUMER span naming no
 * producer have no other half: counted as roots. Of two halves of one kind for one call or message (a retried span
 * export) the first is kept.
 */
public final class SpanPairer {

    /**
     * What became of the spans so far: calls and messages paired; halves paired on one host, roots, duplicates,
     * dropped and still waiting (a consumer span counts once per producer it names).
     */
    public record Counts(long spans, long exchanges, long messages, long sameHost, long roots, long duplicates,
            long dropped, long pending) {
    }

    private record Waiting(RpcSpan half, long generation) {
    }

    /** One producer span's message, keyed by its trace and span id: the producer once seen, the consumers so far. */
    private static final class Message {
        final long generation;
        MessagingSpan producer;
        final Set<SpanRef> consumers = new LinkedHashSet<>();
        final Map<SpanRef, MessagingSpan> waitingConsumers = new HashMap<>();

        Message(long generation) {
            this.generation = generation;
        }

        /** Halves that found no other: the consumers still waiting, or a producer no consumer named. */
        long unpaired() {
            return producer == null ? waitingConsumers.size() : consumers.isEmpty() ? 1 : 0;
        }
    }

    private final long window;
    private final Consumer<RpcExchange> calls;
    private final Consumer<MessageExchange> messages;
    private final Map<String, Waiting> waiting = new HashMap<>();
    private final Map<SpanRef, Message> byProducer = new HashMap<>();
    private long generation;
    private long inGeneration;
    private long spans;
    private long exchanges;
    private long messageCount;
    private long sameHost;
    private long roots;
    private long duplicates;
    private long dropped;

    public SpanPairer(long window, Consumer<RpcExchange> calls, Consumer<MessageExchange> messages) {
        if (window <= 0) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.window = window;
        this.calls = calls;
        this.messages = messages;
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
                    calls.accept(new RpcExchange(client, server));
                }
            }
        }
        tick();
    }

    public void accept(MessagingSpan span) {
        spans++;
        if (span.kind() == MessagingSpan.Kind.PRODUCER) {
            Message m = byProducer.computeIfAbsent(new SpanRef(span.traceId(), span.spanId()),
                    k -> new Message(generation));
            if (m.producer != null) {
                duplicates++;
            } else {
                m.producer = span;
                m.waitingConsumers.values().forEach(c -> pair(span, c));
                m.waitingConsumers.clear();
            }
        } else if (span.producers().isEmpty()) {
            roots++;
        } else {
            SpanRef self = new SpanRef(span.traceId(), span.spanId());
            for (SpanRef producer : new LinkedHashSet<>(span.producers())) {
                Message m = byProducer.computeIfAbsent(producer, k -> new Message(generation));
                if (!m.consumers.add(self)) {
                    duplicates++;
                } else if (m.producer != null) {
                    pair(m.producer, span);
                } else {
                    m.waitingConsumers.put(self, span);
                }
            }
        }
        tick();
    }

    private void pair(MessagingSpan producer, MessagingSpan consumer) {
        if (producer.host().equals(consumer.host())) {
            sameHost++;
        } else {
            messageCount++;
            messages.accept(new MessageExchange(producer, consumer));
        }
    }

    private void tick() {
        if (++inGeneration == window) {
            inGeneration = 0;
            generation++;
            int before = waiting.size();
            waiting.values().removeIf(w -> w.generation() < generation - 1);
            dropped += before - waiting.size();
            for (Iterator<Message> it = byProducer.values().iterator(); it.hasNext(); ) {
                Message m = it.next();
                if (m.generation < generation - 1) {
                    dropped += m.unpaired();
                    it.remove();
                }
            }
        }
    }

    /** Drops every half still waiting (the input ended), counting them. */
    public void finish() {
        dropped += waiting.size() + unpairedMessageHalves();
        waiting.clear();
        byProducer.clear();
    }

    public Counts counts() {
        return new Counts(spans, exchanges, messageCount, sameHost, roots, duplicates, dropped,
                waiting.size() + unpairedMessageHalves());
    }

    private long unpairedMessageHalves() {
        return byProducer.values().stream().mapToLong(Message::unpaired).sum();
    }
}
