package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.streams.metrics.PipelineStats;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * {@link InternalTopics#all}, what {@link ApplicationReset} deletes, is every changelog and repartition
 * topic of the topology under every combination of the shortcuts and with regions (and their topic of the
 * backbone's factors), and nothing else; the network task's input is the topic named for it.
 */
class InternalTopicsTest {

    @Test
    void theListIsEveryInternalTopicOfEveryShape() {
        Set<String> found = new TreeSet<>();
        for (boolean bySegment : new boolean[] {false, true}) {
            for (String network : new String[] {"whole", "with links", "regions"}) {
                Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID(),
                        "traces.partitioned.by.segment", String.valueOf(bySegment),
                        "links.with.network", String.valueOf(network.equals("with links")),
                        "network.regions", network.equals("regions") ? "^(rack\\d+)-" : ""));
                String backboneFactors = Topics.backboneFactorsOf(settings.get("application.id"));
                TopologyDescription shape = TracesyncTopology.build(settings, new Topics(settings),
                        new PipelineStats()).describe();
                for (TopologyDescription.Subtopology sub : shape.subtopologies()) {
                    for (TopologyDescription.Node node : sub.nodes()) {
                        if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                            source.topicSet().stream().filter(t -> t.endsWith("-repartition"))
                                    .forEach(t -> found.add("app-" + t));
                            if (source.topicSet().contains(backboneFactors)) {
                                found.add(Topics.backboneFactorsOf("app")); // the regions' own topic
                            }
                        } else if (node instanceof TopologyDescription.Processor processor) {
                            // every store but the matcher's before-commit hook, which holds nothing
                            processor.stores().stream().filter(s -> !s.equals(TracesyncTopology.PAIR_BATCHES))
                                    .forEach(s -> found.add("app-" + s + "-changelog"));
                        }
                    }
                }
            }
        }
        assertEquals(found, new TreeSet<>(InternalTopics.all("app")));
    }

    @Test
    void theNetworkTaskReadsItsRepartitionOrThePairsWithLinksInItsTask() {
        for (boolean withNetwork : new boolean[] {false, true}) {
            Settings settings = Settings.of(Map.of("schema.registry.url", "mock://" + UUID.randomUUID(),
                    "application.id", "app", "links.with.network", String.valueOf(withNetwork)));
            Set<String> singlePartition = new TreeSet<>();
            for (TopologyDescription.Subtopology sub : TracesyncTopology.build(settings, new Topics(settings),
                    new PipelineStats()).describe().subtopologies()) {
                boolean network = sub.nodes().stream().anyMatch(n -> n instanceof TopologyDescription.Processor p
                        && p.stores().contains(TracesyncTopology.NETWORK_LINK_STORE));
                sub.nodes().stream().filter(n -> network && n instanceof TopologyDescription.Source)
                        .forEach(n -> singlePartition.addAll(((TopologyDescription.Source) n).topicSet()));
            }
            assertEquals(Set.of(InternalTopics.networkTaskInput(settings)),
                    singlePartition.stream().map(t -> "app-" + t).collect(java.util.stream.Collectors.toSet()));
        }
    }
}
