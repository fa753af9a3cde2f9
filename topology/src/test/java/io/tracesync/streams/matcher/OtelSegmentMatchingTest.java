package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.TraceEvent;
import io.tracesync.otel.MessageExchange;
import io.tracesync.otel.MessagingSpan;
import io.tracesync.otel.RpcExchange;
import io.tracesync.otel.RpcSpan;
import io.tracesync.otel.SpanRef;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The synthetic segments of OpenTelemetry calls and messages go through the application's check and matcher. */
class OtelSegmentMatchingTest {

    private final MockProcessorContext<LinkId, MatchedPairs> context = new MockProcessorContext<>();
    private final PipelineStats stats = new PipelineStats();
    private final TraceEventCheck check = new TraceEventCheck("traces.");
    private SegmentMatcher matcher;

    @BeforeEach
    void matcher() {
        context.setCurrentSystemTimeMs(0);
        InMemoryGenerations.add(context, "m", Duration.ofSeconds(10));
        matcher = new SegmentMatcher("m", Duration.ofSeconds(10), 1_000_000, stats);
        matcher.init(context);
    }

    @Test
    void everyExchangeGivesItsRequestAndResponseAndNothingElseInAnyOrder() {
        Random random = new Random(8);
        List<RpcExchange> exchanges = new ArrayList<>();
        String trace = "0af7651916cd43dd8448eb211c80319c";
        for (int i = 0; i < 500; i++) {
            // Calls share trace ids and, every 50th, a client span id of another trace: the saddr tells them apart.
            String traceId = i % 3 == 0 ? trace : String.format("%032x", random.nextLong() & Long.MAX_VALUE);
            String clientId = i % 50 == 1 && i % 3 != 0 ? "00f067aa0ba902b7" : String.format("%016x", random.nextLong());
            String host = "h" + (i % 4);
            String other = "h" + ((i + 1) % 4);
            long t = 1_700_000_000_000_000_000L + i * 1_000_000L;
            exchanges.add(new RpcExchange(
                    new RpcSpan(traceId, clientId, "", RpcSpan.Kind.CLIENT, host, t, t + 900_000),
                    new RpcSpan(traceId, String.format("%016x", random.nextLong()), clientId, RpcSpan.Kind.SERVER,
                            other, t + 300_000, t + 600_000)));
        }
        List<TraceEvent> events = new ArrayList<>(exchanges.stream().flatMap(x -> x.traceEvents().stream()).toList());
        Collections.shuffle(events, random);
        Set<MatchedPair> expected = exchanges.stream().flatMap(x -> List.of(x.request(), x.response()).stream())
                .map(p -> new MatchedPair(p.sender(), p.sendNs(), p.receiver(), p.recvNs()))
                .collect(Collectors.toSet());
        assertEquals(expected, Set.copyOf(match(events)));
    }

    /**
     * Messages through a broker, every tenth producer span read by three consumers (fan-out: three flows of one
     * key), half the consumers linking to their producer from traces of their own.
     */
    @Test
    void everyMessageIsMatchedOnceIncludingFanOutAndBatches() {
        Random random = new Random(9);
        List<MessageExchange> messages = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String trace = String.format("%032x", random.nextLong() & Long.MAX_VALUE);
            String id = String.format("%016x", random.nextLong());
            long t = 1_700_000_000_000_000_000L + i * 1_000_000L;
            MessagingSpan producer = new MessagingSpan(trace, id, "", MessagingSpan.Kind.PRODUCER, "h" + (i % 4), t,
                    t + 900_000, List.of());
            for (int c = 1; c <= (i % 10 == 0 ? 3 : 1); c++) {
                boolean linked = i % 2 == 0;
                messages.add(new MessageExchange(producer, new MessagingSpan(
                        linked ? String.format("%032x", i + 1) : trace, String.format("%016x", random.nextLong()),
                        linked ? "" : id, MessagingSpan.Kind.CONSUMER, "h" + ((i + c) % 4), t + 300_000,
                        t + 600_000, linked ? List.of(new SpanRef(trace, id)) : List.of())));
            }
        }
        List<TraceEvent> events = new ArrayList<>(messages.stream().flatMap(m -> m.traceEvents().stream())
                .toList());
        Collections.shuffle(events, random);
        Set<MatchedPair> expected = messages.stream().map(MessageExchange::message)
                .map(p -> new MatchedPair(p.sender(), p.sendNs(), p.receiver(), p.recvNs()))
                .collect(Collectors.toSet());
        assertEquals(360, expected.size());
        assertEquals(expected, Set.copyOf(match(events)));
    }

    /** The pairs the application's check and matcher make of these events; none a duplicate. */
    private List<MatchedPair> match(List<TraceEvent> events) {
        for (TraceEvent e : events) {
            String key = check.segmentKey("traces." + e.getNode(), null, e);
            matcher.process(new Record<>(key, e, 0));
        }
        List<MatchedPair> pairs = context.forwarded().stream().flatMap(f -> f.record().value().getPairs().stream())
                .toList();
        assertEquals(events.size() / 2, pairs.size());
        assertEquals(0, stats.duplicates.get());
        return pairs;
    }
}
