package io.tracesync.streams.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tracesync.avro.Quality;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The Prometheus view of one instance: Kafka Streams' own metrics (threads, tasks, stores, clients; Micrometer's
 * {@link KafkaStreamsMetrics}) and tracesync's domain metrics from {@link PipelineStats}. Counters count since the
 * process started; the network gauges are those of the instance running the network task (zero elsewhere).
 */
public final class AppMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final KafkaStreamsMetrics streamsMetrics;
    private final PipelineStats stats;

    public AppMetrics(KafkaStreams streams, PipelineStats stats) {
        this.stats = stats;
        counter("tracesync.events", "Trace events read", stats.events);
        counter("tracesync.pairs.matched", "Sends matched with their receives", stats.pairs);
        counter("tracesync.events.duplicate", "Events seen twice (dropped after the first)", stats.duplicates);
        counter("tracesync.events.unmatched.expired", "Events whose other side never came, expired",
                stats.expiredUnmatched);
        counter("tracesync.link.pairs", "Matched pairs applied to their link's hulls", stats.linkPairs);
        counter("tracesync.link.summaries", "Link summaries emitted", stats.linkSummaries);
        counter("tracesync.link.contradictions", "Pairs that contradicted the clock model (a clock step, a frequency "
                + "step beyond link.curvature), each restarting its link's windows", stats.contradictions);
        counter("tracesync.network.updates", "Link summaries the network core has taken at emissions (the last of "
                + "each link's since the previous one applied, those before it replaced)", stats.networkUpdates);
        counter("tracesync.network.applied", "Of those, the link summaries applied: the last of each link's since the "
                + "previous emission, where it could move a node's interval or the estimate", stats.networkApplied);
        counter("tracesync.factor.records", "Records written to the factors topic", stats.factorRecords);
        counter("tracesync.factor.history.records", "Factor records kept in the history (its store and topic)",
                stats.historyRecords);
        counter("tracesync.factor.history.expired", "Factor versions deleted from the history store past "
                + "factors.history.retention", stats.historyExpired);
        counter("tracesync.tree.changes", "Changes of the spanning forest or of a reference (snapshots written to "
                + "the tree topic)", stats.treeRecords);
        counter("tracesync.reference.changes", "Components that got a new reference node", stats.referenceChanges);
        counter("tracesync.dead.letters", "Records sent to the dead-letter topic", stats.deadLetters);
        counter("tracesync.writes.retried", "Writes refused for a transient reason, retried from the task's last "
                + "commit", stats.retriedWrites);
        counter("tracesync.threads.replaced", "Stream threads that failed and were replaced", stats.replacedThreads);
        gauge("tracesync.segments.pending", "Sends or receives waiting for their other side", stats.pendingSegments);
        gauge("tracesync.links.accurate", "ACCURATE links, counted by the link tasks of this instance",
                stats.accurateLinks);
        gauge("tracesync.links.near.model", "Links whose clocks turn at more than half of link.curvature, as their "
                + "data show it (observed_curvature_ppb_per_s in sync.links), counted by the link tasks of this "
                + "instance", stats.nearModelLinks);
        gauge("tracesync.links.stepped", "Links whose data showed a step of the relative frequency beyond the clock "
                + "model (observed_step_ppb above 0 in sync.links: a time daemon's update or slew beyond "
                + "link.step.ppb), counted by the link tasks of this instance since they took the links",
                stats.steppedLinks);
        gauge("tracesync.network.pending", "Link summaries that reached the network task since its last emission, "
                + "waiting for the next (emissions are paced in large networks: factors.emit.max.share)",
                stats.networkPending);
        gauge("tracesync.links.inconsistent", "Links left out at the last emission, each contradicting the other "
                + "paths between its nodes", stats.inconsistentLinks);
        for (Quality q : Quality.values()) {
            AtomicLong n = stats.linksByQuality.computeIfAbsent(q.name(), k -> new AtomicLong());
            Gauge.builder("tracesync.network.links", n, AtomicLong::get)
                    .description("Links of the network by their latest quality").tag("quality", q.name())
                    .register(registry);
        }
        TimeGauge.builder("tracesync.factor.lag", stats.factorLagMs, TimeUnit.MILLISECONDS, AtomicLong::get)
                .description("At the last emission, how long its oldest link summary had waited").register(registry);
        Gauge.builder("tracesync.bound.widest", stats.worstBoundPs, b -> b.get() < 0 ? Double.NaN : b.get() * 1e-12)
                .description("Widest guaranteed bound of the published factors, at their anchors").baseUnit("seconds")
                .register(registry);
        for (KafkaStreams.State s : KafkaStreams.State.values()) {
            Gauge.builder("tracesync.streams.state", streams, k -> k.state() == s ? 1 : 0)
                    .description("1 for the Kafka Streams state the instance is in").tag("state", s.name())
                    .register(registry);
        }
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Every metric in the Prometheus text format. */
    /** What the instance waits for before Kafka Streams starts, or null ({@link PipelineStats#waitingFor}). */
    public String waitingFor() {
        return stats.waitingFor.get();
    }

    public String scrape() {
        return registry.scrape();
    }

    private void counter(String name, String description, AtomicLong value) {
        FunctionCounter.builder(name, value, AtomicLong::get).description(description).register(registry);
    }

    private void gauge(String name, String description, AtomicLong value) {
        Gauge.builder(name, value, AtomicLong::get).description(description).register(registry);
    }

    @Override
    public void close() {
        streamsMetrics.close();
        registry.close();
    }
}
