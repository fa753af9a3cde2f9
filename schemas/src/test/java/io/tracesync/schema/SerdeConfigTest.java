package io.tracesync.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class SerdeConfigTest {

    @Test
    void defaultsAreConfluents() {
        SerdeConfig c = SerdeConfig.parse(Map.of("schema.registry.url", "http://r:8081"));
        assertEquals(List.of("http://r:8081"), c.urls());
        assertTrue(c.autoRegister());
        assertNull(c.userInfo());
        assertEquals(SubjectNameStrategy.TOPIC_NAME, c.strategy(true));
        assertEquals(SubjectNameStrategy.TOPIC_NAME, c.strategy(false));
        assertEquals(Duration.ofSeconds(30), c.requestTimeout());
        assertEquals(new SerdeConfig.Retries(3, Duration.ofSeconds(1), Duration.ofSeconds(20)), c.retries());
    }

    @Test
    void retryWaitsDoubleUpToTheirCeiling() {
        SerdeConfig.Retries r = SerdeConfig.parse(Map.of("schema.registry.url", "http://r", "max.retries", "40",
                "retries.wait.ms", "300", "retries.max.wait.ms", "1000")).retries();
        assertEquals(40, r.max());
        assertEquals(List.of(300L, 600L, 1000L, 1000L),
                List.of(r.before(1), r.before(2), r.before(3), r.before(4)).stream().map(Duration::toMillis).toList());
        assertEquals(Duration.ofMillis(1000), r.before(40));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "max.retries", "-1")));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "retries.wait.ms", "soon")));
    }

    @Test
    void urlsAreACommaSeparatedListOrAList() {
        assertEquals(List.of("http://a:1", "http://b:2/apis/ccompat/v7"),
                SerdeConfig.parse(Map.of("schema.registry.url", " http://a:1 , http://b:2/apis/ccompat/v7,")).urls());
        assertEquals(List.of("http://a:1", "http://b:2"),
                SerdeConfig.parse(Map.of("schema.registry.url", List.of("http://a:1", "http://b:2"))).urls());
    }

    @Test
    void missingUrlIsAConfigError() {
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of()));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", " , ")));
    }

    @Test
    void mockMustBeTheOnlyUrl() {
        assertThrows(ConfigException.class,
                () -> SerdeConfig.parse(Map.of("schema.registry.url", "mock://a,http://b:1")));
        assertSame(MockSchemaRegistry.scope("config-test"),
                SerdeConfig.parse(Map.of("schema.registry.url", "mock://config-test")).client());
        assertInstanceOf(RestSchemaRegistryClient.class,
                SerdeConfig.parse(Map.of("schema.registry.url", "http://b:1")).client());
    }

    @Test
    void readsConfluentKeys() {
        SerdeConfig c = SerdeConfig.parse(Map.of("schema.registry.url", "http://r", "auto.register.schemas", false,
                "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "alice:s3cret",
                "key.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy",
                "value.subject.name.strategy", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy",
                "schema.registry.request.timeout.ms", "1500"));
        assertFalse(c.autoRegister());
        assertEquals("alice:s3cret", c.userInfo());
        assertEquals(SubjectNameStrategy.RECORD_NAME, c.strategy(true));
        assertEquals(SubjectNameStrategy.TOPIC_RECORD_NAME, c.strategy(false));
        assertEquals(Duration.ofMillis(1500), c.requestTimeout());
    }

    @Test
    void userInfoCountsOnlyWithItsSourceAndIsNeverShown() {
        assertNull(SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "basic.auth.user.info", "alice:s3cret")).userInfo());
        SerdeConfig c = SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "alice:s3cret"));
        assertFalse(c.toString().contains("s3cret"), c.toString());
        assertFalse(c.toString().contains("alice"), c.toString());
    }

    @Test
    void badAuthAndTimeoutAreConfigErrors() {
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "basic.auth.credentials.source", "USER_INFO")));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "basic.auth.credentials.source", "SASL_INHERIT")));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "schema.registry.request.timeout.ms", "soon")));
        assertThrows(ConfigException.class, () -> SerdeConfig.parse(Map.of("schema.registry.url", "http://r",
                "schema.registry.request.timeout.ms", "0")));
    }
}
