package io.tracesync.streams.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class HealthTest {

    @Test
    void liveUnlessFailedOrStoppingReadyOnlyWhenRunning() {
        for (State s : State.values()) {
            Health h = Health.of(s, null, List.of());
            boolean live = s == State.CREATED || s == State.REBALANCING || s == State.RUNNING;
            assertEquals(live, h.live(), s.name());
            assertEquals(s == State.RUNNING, h.ready(), s.name());
        }
    }

    @Test
    void anInstanceWaitingForItsFirstTraceTopicIsReadyUntilKafkaStreamsStarts() {
        String waiting = "a trace topic matching traces\\..+";
        for (State s : State.values()) {
            Health h = Health.of(s, waiting, List.of());
            assertEquals(s == State.CREATED || s == State.RUNNING, h.ready(), s.name());
            assertEquals(s == State.CREATED ? waiting : null, h.waitingFor(), s.name());
        }
    }
}
