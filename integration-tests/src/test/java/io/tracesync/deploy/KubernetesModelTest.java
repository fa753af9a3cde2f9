package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

/** The strict reader refuses what the API server would refuse; each case is a mistake easy to make by hand. */
class KubernetesModelTest {

    private static final String STATEFUL_SET = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: s}
            spec:
              replicas: %s
              selector: {matchLabels: {app: s}}
              template:
                metadata: {labels: {app: s}}
                spec:
                  containers:
                    - name: c
                      image: i
                      %s
                      env: [{name: A, value: %s}]
            """;

    private static JsonNode yaml(String text) throws Exception {
        return DeployFiles.YAML.readTree(text);
    }

    private static JsonNode statefulSet(String replicas, String containerField, String envValue) throws Exception {
        return yaml(STATEFUL_SET.formatted(replicas, containerField, envValue));
    }

    @Test
    void readsAValidManifestIntoItsType() throws Exception {
        StatefulSet s = (StatefulSet) KubernetesModel.read("ok", statefulSet("2", "args: [run]", "'1'"));
        assertEquals(2, s.getSpec().getReplicas());
        assertEquals("1", s.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().get(0).getValue());
    }

    @Test
    void refusesAMisspelledFieldAtAnyDepth() throws Exception {
        AssertionError e = assertThrows(AssertionError.class,
                () -> KubernetesModel.read("typo", statefulSet("2", "readinesProbe: {}", "'1'")));
        assertTrue(e.getMessage().contains("StatefulSet.spec.template.spec.containers[0].readinesProbe"),
                e.getMessage());
    }

    @Test
    void refusesANumberWhereAStringBelongs() throws Exception {
        assertThrows(AssertionError.class, () -> KubernetesModel.read("env", statefulSet("2", "args: [run]", "1")));
        assertThrows(AssertionError.class, () -> KubernetesModel.read("data",
                yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {PORT: 8080}}")));
    }

    @Test
    void refusesAStringWhereANumberBelongs() throws Exception {
        assertThrows(AssertionError.class,
                () -> KubernetesModel.read("replicas", statefulSet("'2'", "args: [run]", "'1'")));
    }

    @Test
    void refusesAnUnexpectedKind() throws Exception {
        assertThrows(AssertionError.class, () -> KubernetesModel.read("kind",
                yaml("{apiVersion: apps/v1beta1, kind: StatefulSet, metadata: {name: s}}")));
    }
}
