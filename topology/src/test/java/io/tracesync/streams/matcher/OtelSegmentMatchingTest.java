package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.TraceEvent;
import io.tracesync.otel.RpcExchange;
import io.tracesync.otel.RpcSpan;
import io.tracesync.streams.PipelineStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The synthetic segments of OpenTelemetry exchanges go through the application's check and matcher exactly. */
class OtelSegmentMatchingTest {

    @Test
    void everyExchangeGivesItsRequestAndResponseAndNothingElseInAnyOrder() {
        MockProcessorContext<LinkId, MatchedPair> context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(0);
        KeyValueStore<String, SegmentFlows> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("m"),
                Serdes.String(), SegmentFlows.serde()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        PipelineStats stats = new PipelineStats();
        SegmentMatcher matcher = new SegmentMatcher("m", Duration.ofSeconds(10), 1_000_000, stats);
        matcher.init(context);
        TraceEventCheck check = new TraceEventCheck("traces.");

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
        for (TraceEvent e : events) {
            String key = check.segmentKey("traces." + e.getNode(), null, e);
            matcher.process(new Record<>(key, e, 0));
        }

        Set<MatchedPair> expected = exchanges.stream().flatMap(x -> List.of(x.request(), x.response()).stream())
                .map(p -> new MatchedPair(p.sender(), p.sendNs(), p.receiver(), p.recvNs()))
                .collect(Collectors.toSet());
        List<MatchedPair> pairs = context.forwarded().stream().map(f -> (MatchedPair) f.record().value()).toList();
        assertEquals(1000, pairs.size());
        assertEquals(expected, Set.copyOf(pairs));
        assertEquals(0, stats.duplicates.get());
    }
}
