package io.tracesync.bench;

import static io.tracesync.streams.config.TracesyncConfig.LINKS_WITH_NETWORK_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.LinkSummary;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.avro.TraceEvent;
import io.tracesync.streams.InternalTopics;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import io.tracesync.streams.TracesyncTopology;
import io.tracesync.streams.metrics.PipelineStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * One stage of tracesync's topology — the steps between two of its hops, as {@link TracesyncTopology} wires them —
 * alone, reading what its input hop carried in a measured run: its CPU per record is that stage's cost, its
 * throughput that stage's capacity on one stream thread (for the one-partition network stage, the whole
 * application's). A stage ends where the pipeline has a hop: its output goes to a topic of the stage's own, so that
 * encoding and producing stay in the cost.
 */
final class StageTopology {

    /** The steps, in the pipeline's order. */
    enum Step { CHECK, MATCH, LINKS, NETWORK }

    /**
     * A stage: its steps, and the repartition topic it reads ({@code null}: the input topic itself), named as
     * {@link InternalTopics} names it.
     */
    record Stage(List<Step> steps, String hop) {

        String name() {
            return String.join("+", steps.stream().map(s -> s.name().toLowerCase()).toList());
        }

        /** The hop's topic in application {@code applicationId}, or null for the input. */
        String topic(String applicationId) {
            return hop == null ? null : InternalTopics.repartition(applicationId, hop);
        }
    }

    private StageTopology() {
    }

    /** The stages of the application these settings configure: the sub-topologies between its hops. */
    static List<Stage> stages(Settings settings) {
        List<Stage> stages = new ArrayList<>();
        boolean bySegment = settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG);
        boolean withNetwork = settings.bool(LINKS_WITH_NETWORK_CONFIG);
        if (bySegment) {
            stages.add(new Stage(List.of(Step.CHECK, Step.MATCH), null));
        } else {
            stages.add(new Stage(List.of(Step.CHECK), null));
            stages.add(new Stage(List.of(Step.MATCH), InternalTopics.SEGMENTS));
        }
        if (withNetwork) {
            stages.add(new Stage(List.of(Step.LINKS, Step.NETWORK), InternalTopics.PAIRS));
        } else {
            stages.add(new Stage(List.of(Step.LINKS), InternalTopics.PAIRS));
            stages.add(new Stage(List.of(Step.NETWORK), InternalTopics.NETWORK));
        }
        return stages;
    }

    /**
     * {@code stage} alone: reads {@code hopTopic} (the input topic when the stage starts at the check), counts
     * what it reads into {@code consumed}, and writes what the next hop would carry to {@code output}.
     */
    static Topology build(Stage stage, String hopTopic, String output, Settings settings, Topics topics,
            PipelineStats stats, AtomicLong consumed) {
        StreamsBuilder b = TracesyncTopology.builder(settings);
        Named counted = Named.as("counted");
        KStream<String, TraceEvent> keyed = null;
        KStream<LinkId, MatchedPairs> pairs = null;
        KStream<LinkId, LinkSummary> summaries = null;
        for (Step step : stage.steps()) {
            boolean first = step == stage.steps().get(0);
            switch (step) {
                case CHECK -> keyed = TracesyncTopology.check(b, TracesyncTopology.source(b, topics)
                        .peek((k, v) -> consumed.incrementAndGet(), counted), settings, topics);
                case MATCH -> pairs = TracesyncTopology.match(b, first
                        ? b.stream(hopTopic, Consumed.with(Serdes.String(), topics.traceEvent))
                                .peek((k, v) -> consumed.incrementAndGet(), counted)
                        : keyed, settings, stats);
                case LINKS -> summaries = TracesyncTopology.links(b, first
                        ? b.stream(hopTopic, Consumed.with(topics.linkId, topics.matchedPairs))
                                .peek((k, v) -> consumed.incrementAndGet(), counted)
                        : pairs, settings, stats, topics);
                case NETWORK -> TracesyncTopology.writeOutputs(TracesyncTopology.network(b, first
                        ? b.stream(hopTopic, Consumed.with(topics.linkId, topics.linkSummary))
                                .peek((k, v) -> consumed.incrementAndGet(), counted)
                        : summaries, settings, stats, topics), settings, topics, stats);
            }
        }
        switch (stage.steps().get(stage.steps().size() - 1)) {
            case CHECK -> keyed.to(output, Produced.with(Serdes.String(), topics.traceEvent));
            case MATCH -> pairs.to(output, Produced.with(topics.linkId, topics.matchedPairs));
            case LINKS -> summaries.to(output, Produced.with(topics.linkId, topics.linkSummary));
            case NETWORK -> { } // its sinks are the application's own
        }
        return b.build(settings.streamsProperties());
    }
}
