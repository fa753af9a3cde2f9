package io.tracesync.otel;

import io.tracesync.avro.TraceEvent;
import io.tracesync.core.link.SendReceive;
import java.util.List;

/**
 * One message from a PRODUCER span's host to the host of a CONSUMER span naming it ({@link
 * MessagingSpan#producers()}): sent at the producer's start, received at the consumer's end.
 *
 * <p>A pair (send, receive) may enter a link's hull only if the send reading was taken no later than the message
 * left and the receive reading no earlier than it arrived (docs/LINK-CORE.md: a→b points lie above every compatible
 * clock line). All the spans tell is that the message left within the producer span and arrived within the
 * consumer span, so only start(producer) ≤ departure &lt; arrival ≤ end(consumer) holds for every instrumentation:
 * the producer span may end after the consumer's (an asynchronous send ends on the broker's acknowledgement) and a
 * receive span may start before the message was even sent (a poll waiting for it). As for CLIENT/SERVER calls
 * ({@link RpcExchange}) nothing but this causality is assumed; the broker's delay is long and the processing
 * before the consumer span ends adds to it, which only loosens the bound.
 */
public record MessageExchange(MessagingSpan producer, MessagingSpan consumer) {

    public MessageExchange {
        if (producer.kind() != MessagingSpan.Kind.PRODUCER || consumer.kind() != MessagingSpan.Kind.CONSUMER
                || !consumer.producers().contains(new SpanRef(producer.traceId(), producer.spanId()))) {
            throw new IllegalArgumentException("a message is a PRODUCER span and a CONSUMER span naming it");
        }
        if (producer.host().equals(consumer.host())) {
            throw new IllegalArgumentException("producer and consumer on the same host " + producer.host());
        }
    }

    public SendReceive message() {
        return new SendReceive(producer.host(), producer.startNs(), consumer.host(), consumer.endNs());
    }

    /** The send and the receive the matcher pairs. */
    public List<TraceEvent> traceEvents() {
        return List.of(SyntheticSegment.messageSend(this), SyntheticSegment.messageReceive(this));
    }
}
