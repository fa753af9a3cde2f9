package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tracesync.streams.errors.InvalidTraceEventException;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NodeClocksTest {

    private static final long HOUR = 3_600_000_000_000L;

    private KeyValueStore<String, long[]> store;
    private NodeClocks clocks;

    @BeforeEach
    void start() {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("c"), Serdes.String(), NodeClocks.serde())
                .withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        clocks = new NodeClocks(store, Duration.ofNanos(HOUR));
    }

    @Test
    void anAbsurdJumpIsRejectedAndDoesNotMoveTheNodesClock() {
        clocks.check("a", 10 * HOUR);
        InvalidTraceEventException e = assertThrows(InvalidTraceEventException.class,
                () -> clocks.check("a", 12 * HOUR));
        assertEquals("clock jump: node a timestamp 43200000000000 is 7200000000000 ns from its previous event's"
                + " 36000000000000 (check.max.clock.jump 3600000000000 ns)", e.getMessage());
        assertThrows(InvalidTraceEventException.class, () -> clocks.check("a", 7 * HOUR));
        assertDoesNotThrow(() -> clocks.check("a", 10 * HOUR + 1), "back on the node's clock");
        assertDoesNotThrow(() -> clocks.check("b", 99 * HOUR), "nodes are independent");
    }

    @Test
    void aZeroBoundLeavesClocksUnchecked() {
        NodeClocks unchecked = new NodeClocks(store, Duration.ZERO);
        unchecked.check("a", 10 * HOUR);
        assertDoesNotThrow(() -> unchecked.check("a", 1_000 * HOUR));
        assertDoesNotThrow(() -> unchecked.check("a", 0));
    }

    @Test
    void aRealStepIsFollowedAfterOneDeadLetter() {
        clocks.check("a", 10 * HOUR);
        assertThrows(InvalidTraceEventException.class, () -> clocks.check("a", 20 * HOUR));
        assertDoesNotThrow(() -> clocks.check("a", 20 * HOUR + 5), "two rejected events agree: the clock stepped");
        assertDoesNotThrow(() -> clocks.check("a", 20 * HOUR + 9));
        assertThrows(InvalidTraceEventException.class, () -> clocks.check("a", 10 * HOUR));
    }
}
