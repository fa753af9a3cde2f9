package io.tracesync.streams.health;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KafkaStreams.State;

/**
 * Liveness and readiness of an instance, from its Kafka Streams state. Live: not failed or stopping (ERROR,
 * PENDING_ERROR, PENDING_SHUTDOWN, NOT_RUNNING mean the process should be restarted). Ready: RUNNING, i.e. its tasks
 * are assigned and restored, so it answers queries and a rolling restart may move on to the next instance; or
 * waiting for its first trace topic ({@code waitingFor}), with nothing to process, restore or lose.
 */
public record Health(State state, boolean live, boolean ready, String waitingFor, List<String> threads) {

    public static Health of(KafkaStreams streams, String waitingFor) {
        State s = streams.state();
        List<String> threads = streams.metadataForLocalThreads().stream()
                .map(t -> t.threadName() + " " + t.threadState()).sorted().toList();
        return of(s, waitingFor, threads);
    }

    static Health of(State s, String waitingFor, List<String> threads) {
        boolean live = switch (s) {
            case CREATED, REBALANCING, RUNNING -> true;
            case PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR -> false;
        };
        String waiting = s == State.CREATED ? waitingFor : null;
        return new Health(s, live, s == State.RUNNING || waiting != null, waiting, threads);
    }
}
