package io.tracesync.streams;

import static io.tracesync.streams.config.TracesyncConfig.LINKS_WITH_NETWORK_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.NETWORK_REGIONS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TOPICS_PARTITIONS_CONFIG;
import static io.tracesync.streams.config.TracesyncConfig.TRACES_PARTITIONED_BY_SEGMENT_CONFIG;

import io.tracesync.schema.SchemaRegistryUnavailableException;
import io.tracesync.schema.SpecificAvroSerde;
import io.tracesync.streams.metrics.PipelineStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running instance: creates the output topics it needs, then runs the topology until closed. A stream thread
 * that dies of an unexpected error is replaced (bad records never get that far: they go to the dead-letter topic).
 */
public final class TracesyncApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TracesyncApp.class);
    private static final long TRACE_TOPIC_LOOK_MS = 1000;

    private final Settings settings;
    private final Topics topics;
    private final PipelineStats stats = new PipelineStats();
    private final KafkaStreams streams;
    /** The thread that starts Kafka Streams once a trace topic exists, if there was none at the start. */
    private Thread watch;
    private boolean stopping;

    private TracesyncApp(Settings settings) {
        this.settings = settings;
        this.topics = new Topics(settings);
        Topology topology = TracesyncTopology.build(settings, topics, stats);
        TopologyDescription shape = topology.describe();
        LOG.info("{} sub-topologies: inputs {}, pairs {}, link hulls {}", shape.subtopologies().size(),
                settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG) ? "matched where they are (partitioned by segment)"
                        : "repartitioned by segment",
                TracesyncTopology.batchesPairs(settings) ? "batched per link and commit" : "forwarded one by one",
                settings.bool(LINKS_WITH_NETWORK_CONFIG) ? "in the network's task" : "repartitioned to the network");
        LOG.debug("topology:\n{}", shape);
        Properties properties = settings.streamsProperties();
        properties.put(PipelineStats.CONFIG, stats);
        this.streams = new KafkaStreams(topology, properties);
        streams.setUncaughtExceptionHandler(e -> {
            stats.replacedThreads.incrementAndGet();
            stats.lastThreadFailure.set(e);
            if (SchemaRegistryUnavailableException.isCause(e)) {
                LOG.warn("stream thread stopped while the schema registry is unavailable; replacing it");
            } else {
                LOG.error("stream thread failed; replacing it", e);
            }
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.setStateListener((now, before) -> {
            stats.state.set(now.name());
            LOG.info("state {} -> {}", before, now);
        });
    }

    /** Creates the missing output topics and starts processing. */
    public static TracesyncApp start(Settings settings) throws InterruptedException {
        TracesyncApp app = new TracesyncApp(settings);
        app.createTopics();
        app.configureGroup();
        app.learnSchemaIds();
        app.startWhenTracesExist();
        return app;
    }

    /** As {@link #start}, after deleting this application's local state ({@link KafkaStreams#cleanUp()}). */
    public static TracesyncApp startClean(Settings settings) throws InterruptedException {
        TracesyncApp app = new TracesyncApp(settings);
        app.streams.cleanUp();
        app.createTopics();
        app.configureGroup();
        app.learnSchemaIds();
        app.startWhenTracesExist();
        return app;
    }

    public Topics topics() {
        return topics;
    }

    public PipelineStats stats() {
        return stats;
    }

    public KafkaStreams streams() {
        return streams;
    }

    /** Blocks until the instance runs (all tasks assigned and restored) or the timeout passes. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > end || !streams.state().isRunningOrRebalancing()
                    && streams.state() != KafkaStreams.State.CREATED) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private void createTopics() throws InterruptedException {
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = topics.outputs().stream().filter(t -> !existing.contains(t.name()))
                    .collect(Collectors.toList());
            if (!missing.isEmpty()) {
                TopicCreator.create(admin, missing);
                LOG.info("created topics {}", missing.stream().map(NewTopic::name).toList());
            }
            if (settings.bool(TRACES_PARTITIONED_BY_SEGMENT_CONFIG)) {
                checkSegmentPartitioned(admin, existing);
            }
            if (topics.backboneFactors != null) {
                checkBackboneFactorsPartitions(admin);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot prepare the topics on "
                    + settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /**
     * Starts Kafka Streams at once if a trace topic exists, else when the first is created (looked for every
     * second by a daemon thread; the instance is ready meanwhile, {@link PipelineStats#waitingFor}). Kafka Streams
     * cannot start without one: its assignment sizes the repartition topics from the inputs' partitions and fails
     * while none exists, replacing its threads every poll interval.
     */
    private void startWhenTracesExist() throws InterruptedException {
        if (!traceTopics().isEmpty()) {
            streams.start();
            return;
        }
        String what = topics.traces.pattern() != null ? "a trace topic matching " + topics.traces.pattern().pattern()
                : "the trace topic " + topics.traces.topic();
        stats.waitingFor.set(what);
        stats.state.set("WAITING_FOR_TRACES");
        LOG.info("waiting for {}: processing starts when it is created", what);
        Thread watch = new Thread(() -> {
            try {
                List<String> found;
                while ((found = traceTopics()).isEmpty()) {
                    Thread.sleep(TRACE_TOPIC_LOOK_MS);
                }
                synchronized (this) {
                    if (stopping) {
                        return;
                    }
                    LOG.info("trace topics {}: starting", found);
                    streams.start();
                    stats.waitingFor.set(null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tracesync-trace-topic-watch");
        watch.setDaemon(true);
        synchronized (this) {
            this.watch = watch;
        }
        watch.start();
    }

    /** The existing trace topics, sorted; none while the broker cannot be reached (logged). */
    private List<String> traceTopics() throws InterruptedException {
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            return admin.listTopics().names().get().stream().filter(topics.traces::includes).sorted().toList();
        } catch (ExecutionException e) {
            LOG.warn("cannot list the topics on {}: {}", settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG),
                    e.getCause().getMessage());
            return List.of();
        }
    }

    /**
     * Under the streams protocol, gives the group's configuration on the broker the standbys, session timeout,
     * heartbeat interval and recovery lag the settings name ({@link ApplicationGroup#configure}); a key the broker
     * refuses is logged and keeps the broker's value, the others are set.
     */
    private void configureGroup() throws InterruptedException {
        if (ApplicationGroup.protocolOf(settings) != ApplicationGroup.Protocol.STREAMS) {
            return;
        }
        try (Admin admin = Admin.create(settings.streamsProperties())) {
            ApplicationGroup.Configured c = ApplicationGroup.of(admin, settings).configure(settings);
            if (!c.set().isEmpty()) {
                LOG.info("streams group {} configured on the broker: {}", settings.get("application.id"), c.set());
            }
            c.refused().forEach((key, what) -> LOG.warn("streams group {}: {}={}", settings.get("application.id"),
                    key, what));
        } catch (ExecutionException e) {
            LOG.warn("streams group {}: the broker refused its configuration from the settings, none of it is set "
                    + "and the broker's own values stay (group.streams.session.timeout.ms, 45 s by default: a dead "
                    + "instance's tasks move that late): {}", settings.get("application.id"),
                    e.getCause().getMessage());
        }
    }

    /**
     * Registers (or looks up) the schema of every topic the application writes, once, before the stream threads
     * start. Every serde then knows the ids it writes and reads, so a task that moves to this instance restores and
     * initialises its stores without waiting on the registry, which on a loaded machine can hold a stream thread
     * (and its open transaction) for seconds. An unavailable registry ends this early and a refused subject is
     * skipped: the serdes then ask when they first need the id, as before.
     */
    private void learnSchemaIds() {
        long start = System.nanoTime();
        int known = 0;
        for (Map.Entry<String, List<SpecificAvroSerde<?>>> write
                : TracesyncTopology.avroWrites(settings, topics).entrySet()) {
            for (SpecificAvroSerde<?> serde : write.getValue()) {
                try {
                    serde.schemaId(write.getKey());
                    known++;
                } catch (SchemaRegistryUnavailableException e) {
                    LOG.warn("schema registry unavailable, schema ids left to be looked up when first needed: {}",
                            e.getMessage());
                    return;
                } catch (SerializationException e) {
                    LOG.warn("no schema id for topic {} yet: {}", write.getKey(), e.getMessage());
                }
            }
        }
        LOG.info("{} schema ids of the application's own topics known in {} ms", known,
                (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * The regions' tasks read the backbone's factors beside their repartition, keyed by region: partition i of both
     * must be the same regions', so the topic must have the repartition's partition count (an earlier run with
     * another {@code network.regions.partitions} made it with its own).
     */
    private void checkBackboneFactorsPartitions(Admin admin) throws InterruptedException, ExecutionException {
        long partitions = settings.integer(NETWORK_REGIONS_PARTITIONS_CONFIG);
        int has = admin.describeTopics(List.of(topics.backboneFactors)).allTopicNames().get()
                .get(topics.backboneFactors).partitions().size();
        if (has != partitions) {
            throw new IllegalStateException(topics.backboneFactors + " has " + has + " partitions, "
                    + NETWORK_REGIONS_PARTITIONS_CONFIG + " is " + partitions + ": delete the topic while no instance "
                    + "runs (the application makes it again) or set " + NETWORK_REGIONS_PARTITIONS_CONFIG + "=" + has);
        }
    }

    /**
     * With {@code traces.partitioned.by.segment}, a segment's send and receive meet only if every trace topic has
     * {@code topics.partitions} partitions; a topic created later is checked record by record (SegmentKeying).
     */
    private void checkSegmentPartitioned(Admin admin, Set<String> existing)
            throws InterruptedException, ExecutionException {
        long partitions = settings.integer(TOPICS_PARTITIONS_CONFIG);
        List<String> inputs = existing.stream().filter(topics.traces::includes).sorted().toList();
        List<String> other = admin.describeTopics(inputs).allTopicNames().get().values().stream()
                .filter(d -> d.partitions().size() != partitions)
                .map(d -> d.name() + " (" + d.partitions().size() + ")").toList();
        if (!other.isEmpty()) {
            throw new IllegalStateException("traces.partitioned.by.segment needs every trace topic to have "
                    + "topics.partitions=" + partitions + " partitions; these have not: " + other);
        }
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Closes Kafka Streams, waiting up to 30 s; whether it closed in that time. It can return before the state
     * listener has logged NOT_RUNNING (Kafka Streams wakes the waiter first), so a caller that must say it stopped
     * says so itself.
     */
    public boolean stop() {
        Thread watching;
        synchronized (this) {
            stopping = true;
            watching = watch;
        }
        if (watching != null) {
            watching.interrupt();
        }
        return streams.close(Duration.ofSeconds(30));
    }
}
