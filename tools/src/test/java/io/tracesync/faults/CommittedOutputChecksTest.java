package io.tracesync.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.avro.ClockMap;
import io.tracesync.avro.SyncFactor;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class CommittedOutputChecksTest {

    private static SyncFactor factor(String node, long version, double offset) {
        return SyncFactor.newBuilder().setNode(node).setComponent("r").setReference("r")
                .setMap(new ClockMap(1.0, 0.0, offset, 0.0)).setValidFromMs(version).setVersion(version).build();
    }

    private static FactorWatch.Seen seen(SyncFactor f, long offset) {
        return new FactorWatch.Seen(0, new ConsumerRecord<>("sync.factors", 0, offset, f.getNode(), f));
    }

    private static ConsumerRecord<String, SyncFactor> kept(SyncFactor f, long offset) {
        return new ConsumerRecord<>("sync.factors.history", 0, offset, f.getNode(), f);
    }

    @Test
    void theHistoryHoldsPublishedVersionsOnlyRisingFromEachNodesFirst() {
        List<FactorWatch.Seen> published = List.of(seen(factor("a", 1, 0), 0), seen(factor("a", 2, 5), 1),
                seen(factor("a", 3, 7), 2), seen(factor("b", 1, 9), 3));
        assertEquals(List.of(), CommittedOutputChecks.historyProblems(List.of(kept(factor("a", 1, 0), 0),
                kept(factor("a", 3, 7), 1), kept(factor("b", 1, 9), 2)), published));
        assertEquals(List.of("a: history version 2 at 0@1 is not the one sync.factors committed"),
                CommittedOutputChecks.historyProblems(List.of(kept(factor("a", 1, 0), 0), kept(factor("a", 2, 6), 1),
                        kept(factor("b", 1, 9), 2)), published));
        assertEquals(List.of("a: history version 1 at 0@1 after version 3"),
                CommittedOutputChecks.historyProblems(List.of(kept(factor("a", 3, 7), 0), kept(factor("a", 1, 0), 1),
                        kept(factor("b", 1, 9), 2)), published).subList(1, 2));
        assertEquals(List.of("b: factors committed but no history"),
                CommittedOutputChecks.historyProblems(List.of(kept(factor("a", 1, 0), 0)), published));
    }
}
