package io.tracesync.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Defaults, then the file, then TRACESYNC_ variables, then flags; a wrong value or a misspelt key fails at once. */
class SettingsTest {

    @TempDir
    Path dir;

    @Test
    void eachLayerOverridesTheOneBefore() throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "commit.interval.ms = 300\nlinks.min.change=0.5\nfactors.emit.interval=2s\n");
        Settings s = Settings.load(file,
                Map.of("TRACESYNC_LINKS_MIN_CHANGE", "0.25", "TRACESYNC_BOOTSTRAP", "127.0.0.1:19092",
                        "HOME", "/root", "TRACESYNC_REGISTRY_URL", "http://127.0.0.1:1/apis/ccompat/v7"),
                Map.of("factors.emit.interval", "50ms"));
        assertEquals("300", s.get("commit.interval.ms"), "from the file");
        assertEquals(0.25, s.number("links.min.change"), "the environment over the file");
        assertEquals(Duration.ofMillis(50), s.duration("factors.emit.interval"), "the flag over the file");
        assertEquals("127.0.0.1:19092", s.get("bootstrap.servers"), "TRACESYNC_BOOTSTRAP");
        assertEquals("http://127.0.0.1:1/apis/ccompat/v7", s.get("schema.registry.url"), "TRACESYNC_REGISTRY_URL");
        assertEquals("3", s.get("topics.partitions"), "a default");
        assertEquals(null, s.get("home"), "variables without the prefix are not settings");
    }

    @Test
    void invalidValuesFailWhenTheSettingsAreMadeNamingTheKey() {
        Map<String, String> bad = Map.of("traces.partitioned.by.segment", "yes", "topics.partitions", "three",
                "links.min.change", "1 %", "matcher.rotation", "soon", "topics.replication.factor", "0",
                "http.port", "70000", "network.method", "best", "matcher.max.pending", "-1");
        bad.forEach((key, value) -> {
            ConfigException e = assertThrows(ConfigException.class, () -> Settings.of(Map.of(key, value)), key);
            assertTrue(e.getMessage().contains(key) && e.getMessage().contains(value), e.getMessage());
        });
        assertFalse(Settings.of(Map.of()).bool("links.with.network"), "the shortcuts are off by default");
        assertFalse(Settings.of(Map.of()).bool("traces.partitioned.by.segment"));
        assertEquals(1_000_000, Settings.of(Map.of("matcher.max.pending", "1_000_000")).integer("matcher.max.pending"));
    }

    @Test
    void durationKeysAreParsedOnceAndOnlyThey() {
        Settings s = Settings.of(Map.of("link.horizon", "PT90S", "startup.check.timeout", "none"));
        assertEquals(Duration.ofSeconds(90), s.duration("link.horizon"));
        assertEquals(Duration.ZERO, s.duration("startup.check.timeout"));
        assertEquals(Duration.ofSeconds(30), s.duration("matcher.rotation"), "a default");
        ConfigException e = assertThrows(ConfigException.class, () -> s.duration("links.min.change"));
        assertTrue(e.getMessage().contains("not a duration key: links.min.change"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> Settings.of(Map.of("matcher.rotation", "0s")));
        assertTrue(e.getMessage().contains("must be longer than zero"), e.getMessage());
    }

    @Test
    void theClockModelIsTheDefaultWithAHorizonAndLinearClocksWithoutOne() {
        LinkOptions byDefault = Settings.of(Map.of()).linkOptions();
        assertEquals(LinkOptions.DEFAULT_CURVATURE_PPB_PER_S, byDefault.curvaturePpbPerS());
        assertEquals(30_000_000_000L, byDefault.shortestWindowNs());
        assertFalse(Settings.of(Map.of("link.horizon", "none")).linkOptions().bending(), "none keeps every pair");
        assertFalse(Settings.of(Map.of("link.curvature", "0")).linkOptions().bending());
        assertEquals(5, Settings.of(Map.of("link.curvature", "5")).linkOptions().curvaturePpbPerS());
        assertFalse(Settings.of(Map.of("link.horizon", "none", "link.curvature", "40")).linkOptions().bending());
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("link.curvature", "-1")))
                .getMessage().contains("link.curvature"));
    }

    /** The excursion reaches the links, in ns, and the network, which widens each node's bounds by it, in ps. */
    @Test
    void theExcursionReachesTheLinksAndTheNetwork() {
        Settings s = Settings.of(Map.of("link.excursion", "20us"));
        assertEquals(20_000, s.linkOptions().excursionNs());
        assertEquals(20_000_000, s.networkOptions().excursionPs());
        assertEquals(0, Settings.of(Map.of()).linkOptions().excursionNs());
    }

    /** Kafka Streams' own rebalance protocol subscribes to no pattern: the traces then come in one topic. */
    @Test
    void theStreamsProtocolWantsOneTraceTopic() {
        ConfigException e = assertThrows(ConfigException.class, () -> Settings.of(Map.of("group.protocol",
                "streams")));
        assertTrue(e.getMessage().contains("traces.topic"), e.getMessage());
        Settings s = Settings.of(Map.of("group.protocol", "STREAMS", "traces.topic", "traces"));
        assertEquals(ApplicationGroup.Protocol.STREAMS, ApplicationGroup.protocolOf(s));
        assertEquals(ApplicationGroup.Protocol.CLASSIC, ApplicationGroup.protocolOf(Settings.of(Map.of())));
    }

    @Test
    void aMisspeltTracesyncKeyFailsWithTheNearestKeyWhileKafkasKeysPassThrough() throws Exception {
        assertEquals("unknown configuration key 'factors.emit.intervall'; did you mean 'factors.emit.interval'? "
                + "(tracesync's keys: docs/STREAMS.md, Configuration)", assertThrows(ConfigException.class,
                        () -> Settings.of(Map.of("factors.emit.intervall", "1s"))).getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("factor.min.change", "0.2")))
                .getMessage().contains("did you mean 'factors.min.change'?"), "two edits away, outside the namespace");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.load(null,
                Map.of("TRACESYNC_NETWORK_WEIGTH", "bound-width"), Map.of())).getMessage()
                .contains("'network.weigth'; did you mean 'network.weight'?"), "from the environment too");
        Settings s = Settings.of(Map.of("state.dir", "/tmp/x", "num.stream.threads", "2", "producer.linger.ms", "5",
                "main.consumer.max.poll.records", "100", "schema.registry.ssl.truststore.location", "/t",
                "basic.auth.user.info", "u:p", "my.own.key", "kept"));
        assertEquals("kept", s.streamsProperties().getProperty("my.own.key"), "far from every key: passed on");
        assertEquals(List.of("unknown configuration key 'my.own.key' (not a key of tracesync, Kafka Streams, the "
                + "Kafka clients or the schema registry client): ignored"), s.warnings());
        assertEquals(null, Settings.load(null, Map.of("TRACESYNC_JAVA_OPTS", "-Xmx1g",
                "TRACESYNC_REGISTRY_JAVA", "/usr/lib/jvm/21"), Map.of()).get("java.opts"), "launcher variables");
    }

    @Test
    void aMisspeltKafkaKeyFailsWithTheNearestAndAWrongKafkaValueFailsBeforeAnyClientIsMade() {
        assertEquals("unknown configuration key 'bootstrap.server'; did you mean 'bootstrap.servers'?",
                assertThrows(ConfigException.class, () -> Settings.of(Map.of("bootstrap.server", "1.2.3.4:9092")))
                        .getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("producer.ack", "all")))
                .getMessage().contains("did you mean 'producer.acks'?"), "after a client's prefix, that client's keys");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("topic.retention.msx", "1")))
                .getMessage().contains("did you mean 'topic.retention.ms'?"), "topic keys");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("schema.registry.urll", "x")))
                .getMessage().contains("did you mean 'schema.registry.url'?"), "the registry's");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("commit.interval.ms", "abc")))
                .getMessage().contains("commit.interval.ms"), "a value of the wrong type");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("producer.acks", "some")))
                .getMessage().contains("producer.acks"), "a value outside the key's choices");
        assertTrue(assertThrows(ConfigException.class, () -> Settings.of(Map.of("commit.interval.ms", "-5")))
                .getMessage().contains("commit.interval.ms"), "below the key's range");
        assertEquals(List.of(), Settings.of(Map.of("producer.acks", "all", "restore.consumer.max.poll.records", "9",
                "topic.min.insync.replicas", "2", "client.tag.zone", "eu-1", "ssl.truststore.location", "/t"))
                .warnings(), "known keys, prefixed or not");
    }

    @Test
    void thePartitionAssignorSeesTheGlobalProcessingHandlerSettingOfTheApplication() {
        // the assignor's StreamsConfig is built from the main consumer's configs; seeing the key off, it warns
        String global = StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG;
        for (String value : List.of("true", "false")) {
            StreamsConfig app = new StreamsConfig(Settings.of(Map.of(global, value)).streamsProperties());
            Map<String, Object> consumer = app.getMainConsumerConfigs("group", "client", 0);
            assertEquals(Boolean.valueOf(value), app.getBoolean(global));
            assertEquals(app.getBoolean(global), new StreamsConfig(consumer).getBoolean(global), value);
        }
    }

    @Test
    void describeHidesSecrets() {
        String printed = Settings.of(Map.of("sasl.jaas.config", "org.apache...ScramLoginModule required"
                + " username=\"u\" password=\"p4ss\";", "ssl.truststore.password", "t4ss",
                "basic.auth.user.info", "u:s3cret")).describe();
        assertTrue(printed.contains("sasl.jaas.config = [hidden]"), printed);
        assertTrue(printed.contains("ssl.truststore.password = [hidden]"), printed);
        assertTrue(printed.contains("basic.auth.user.info = [hidden]"), printed);
        assertFalse(printed.contains("p4ss") || printed.contains("t4ss") || printed.contains("s3cret"), printed);
        assertTrue(printed.contains("topics.partitions = 3"), printed);
    }
}
