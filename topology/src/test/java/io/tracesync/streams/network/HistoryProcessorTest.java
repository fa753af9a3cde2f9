package io.tracesync.streams.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedForward;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

class HistoryProcessorTest {

    private static final long SECOND = 1_000_000_000L;

    private final Topics topics = new Topics(Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID())));
    private final MockProcessorContext<String, SyncFactor> context = new MockProcessorContext<>();
    private final KeyValueStore<String, SyncFactor> emitted = Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore("emitted"), Serdes.String(), topics.syncFactor).withLoggingDisabled().build();

    HistoryProcessorTest() {
        KeyValueStore<Bytes, SyncFactor> history = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                "history"), FactorHistoryStore.KEYS, topics.syncFactor).withLoggingDisabled().build();
        history.init(context.getStateStoreContext(), history);
        emitted.init(context.getStateStoreContext(), emitted);
        context.addStateStore(history);
        context.addStateStore(emitted);
    }

    private HistoryProcessor started() {
        HistoryProcessor p = new HistoryProcessor("history", "emitted", new HistoryGate(10 * SECOND, 5_000),
                Duration.ofDays(7), new PipelineStats());
        p.init(context);
        return p;
    }

    /** Publishes a version as the network step does: into its store of emitted factors, then downstream. */
    private void publish(HistoryProcessor p, long version, long anchorS, double offsetNs) {
        SyncFactor f = SyncFactor.newBuilder().setNode("n1").setComponent("r").setReference("r")
                .setMap(new ClockMap(1.0, 0.0, offsetNs, 0.0)).setAnchorNs(anchorS * SECOND)
                .setValidFromMs(version * 1_000).setVersion(version).build();
        emitted.put("n1", f);
        p.process(new Record<>("n1", f, f.getValidFromMs()));
    }

    private List<Long> forwarded() {
        List<Long> versions = context.forwarded().stream().map(CapturedForward::record)
                .peek(r -> assertEquals(r.value().getValidFromMs(), r.timestamp(), "stamped as published"))
                .map(r -> r.value().getVersion()).toList();
        context.resetForwards();
        return versions;
    }

    /**
     * A departure is kept with the version published before it — also right after the task restarted, when that
     * version is known only from the network step's store of emitted factors.
     */
    @Test
    void theVersionBeforeADepartureIsKeptAlsoAfterARestart() {
        HistoryProcessor p = started();
        publish(p, 1, 1_000, 0);
        publish(p, 2, 1_002, 1_000);
        publish(p, 3, 1_004, 2_000);
        assertEquals(List.of(1L), forwarded(), "within the spacing and the tolerance");
        publish(p, 4, 1_006, 40_000);
        assertEquals(List.of(3L, 4L), forwarded(), "40 µs away, with the one before");
        publish(p, 5, 1_008, 41_000);
        HistoryProcessor restarted = started();
        publish(restarted, 6, 1_010, 90_000);
        assertEquals(List.of(5L, 6L), forwarded(), "the one before read back from the emitted factors");
    }
}
