package io.tracesync.it;

import io.tracesync.environment.FileTrees;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.Settings;
import io.tracesync.streams.TraceTopicWriter;
import io.tracesync.streams.TracesyncApp;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A run across a restart that lost every local state: the first half of a cluster's events to one instance, its
 * state directory deleted, the rest to a new instance, which must restore what it needs from the changelogs (sends
 * of the first half meet their receives of the second).
 */
final class WipedRestart {

    /** What to check while the second instance runs. */
    interface Check {
        void run(TracesyncApp app) throws Exception;
    }

    private WipedRestart() {
    }

    static void run(Settings settings, SimulatedTraces cluster, Duration wait, Check check) throws Exception {
        int half = cluster.events.size() / 2;
        try (TraceTopicWriter writer = new TraceTopicWriter(settings)) {
            writer.createTopics(cluster.nodes);
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.subList(0, half).forEach(writer::write);
                writer.flush();
                Waiting.until(() -> app.stats().events.get() >= half, wait, "first half not processed");
            }
            FileTrees.delete(Path.of(settings.get("state.dir")));
            try (TracesyncApp app = TracesyncApp.start(settings)) {
                cluster.events.subList(half, cluster.events.size()).forEach(writer::write);
                writer.flush();
                check.run(app);
            }
        }
    }
}
