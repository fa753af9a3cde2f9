package io.tracesync.faults;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a fault run counts the instances whole again: all ready, every standby placed, every store caught up. */
class SettledApplicationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode health(boolean ready, int active, int standby, String lag) throws Exception {
        return JSON.readTree("{\"state\": \"" + (ready ? "RUNNING" : "REBALANCING") + "\", \"ready\": " + ready
                + ", \"replication\": {\"activeTasks\": " + active + ", \"standbyTasks\": " + standby
                + ", \"maxStoreLag\": " + lag + "}}");
    }

    @Test
    void wholeWhenEveryTaskHasItsStandbyAndEveryStoreIsCaughtUp() throws Exception {
        assertTrue(SettledApplication.replicated(List.of(health(true, 3, 2, "0"), health(true, 2, 2, "10000"),
                health(true, 2, 3, "12")), 1, 10_000));
    }

    @Test
    void notWholeWhileAnyPartIsMissing() throws Exception {
        JsonNode whole = health(true, 3, 3, "0");
        assertFalse(whole(whole, health(false, 0, 0, "0")), "one rebalancing");
        assertFalse(whole(whole, null), "one without an HTTP side yet");
        assertFalse(whole(whole, health(true, 3, 2, "0")), "a standby missing");
        assertFalse(whole(whole, health(true, 3, 3, "10001")), "a store behind");
        assertFalse(whole(whole, health(true, 3, 3, "null")), "a lag unknown");
        assertFalse(SettledApplication.replicated(List.of(health(true, 0, 0, "0")), 0, 10_000), "no task assigned yet");
    }

    /** Two instances, one standby each task, 10,000 records of lag acceptable. */
    private static boolean whole(JsonNode a, JsonNode b) {
        return SettledApplication.replicated(Arrays.asList(a, b), 1, 10_000);
    }
}
