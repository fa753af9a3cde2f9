package io.tracesync.bench;

import io.tracesync.avro.TraceEvent;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulatedTraffic;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import io.tracesync.sim.Simulator;
import java.util.function.Consumer;

/** A simulated cluster's trace events, in true-time order, until the consumer has had {@code limit} of them. */
final class SimulatedStream {

    /** Thrown by a sink to end the simulation early: the run is long enough. */
    static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    private SimulatedStream() {
    }

    /**
     * Feeds up to {@code limit} events to {@code sink} (which may end it sooner by throwing {@link Stop}); returns
     * how many events it fed and how many true pairs they hold.
     */
    static long[] run(SimulationConfig config, long limit, Consumer<TraceEvent> sink) {
        Scenario scenario = Scenario.build(config);
        SimulatedTraffic traffic = new SimulatedTraffic(scenario);
        long[] counts = new long[2];
        try {
            new Simulator(scenario).run(new SimulationSink() {
                @Override
                public void traceEvent(SimulationSink.TraceEvent e) {
                    if (counts[0] >= limit) {
                        throw new Stop(); // after the pair of the last event was counted
                    }
                    sink.accept(traffic.record(e));
                    counts[0]++;
                }

                @Override
                public void pair(MatchedSegment p) {
                    counts[1]++;
                }

                @Override
                public void clockBreakpoint(int node, long trueNs, long localNs) {
                }
            }, ns -> { });
        } catch (Stop done) {
            // the limit is reached
        }
        return counts;
    }
}
