package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifests of {@code k8s/} run by {@code podman kube play}, as far as it goes: the ConfigMap, the topics Job's
 * pod and the StatefulSet's first pod (its template as written: the security contexts, read-only root, the state
 * claim, the probes, the configuration from the ConfigMap) on the network of the Compose stack's broker and registry.
 * What Kubernetes does and Podman 4.3 does not is done here, each named: a StatefulSet and a Job become their pods
 * ({@code tracesync-0}, its claim {@code state-tracesync-0}), {@code status.podIP} (unknown to Podman) becomes the
 * pod's name on the network, and {@code $(VAR)} references in env values are expanded as the kubelet does; with one
 * broker, the ConfigMap's replication factors are set to 1. Then the simulator's cluster is imported and the pod must
 * publish every node's factor. Runs only with {@code -Ppodman}.
 */
@Tag("podman")
class KubePlayTest {

    private static final String PROJECT = "tracesync-kube-test";
    private static final String POD = "tracesync-0";
    private static final Duration WAIT = Duration.ofMinutes(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern REFERENCE = Pattern.compile("\\$\\((\\w+)\\)");

    @TempDir
    Path dir;

    @Test
    void theManifestsPlayedOnPodmanStartTheTopicsJobAndAnInstanceThatPublishesEveryNode() throws Exception {
        ComposeStackTest.requireFree(29092, 8081);
        try (PodmanEngine engine = PodmanEngine.require(dir)) {
            DeployImages.build(engine);
            engine.runHealthChecks(PROJECT);
            Path manifest = dir.resolve("play.yaml");
            try {
                engine.compose(WAIT, "-p", PROJECT, "up", "-d", "--wait", "kafka", "registry");
                Files.writeString(manifest, pods());
                engine.podmanIn(dir, WAIT, "kube", "play", "--network", PROJECT + "_default", manifest.toString());
                long start = System.nanoTime();
                engine.awaitExited("tracesync-topics-kafka-topics", WAIT);
                awaitReady(engine);
                double ready = (System.nanoTime() - start) / 1e9;
                int nodes = importSimulatedCluster(engine);
                int unavailable = awaitFactors(engine, nodes);
                System.out.printf("k8s/ on podman kube play: the topics job done and %s ready %.0f s after the play, "
                        + "%d nodes' factors published %.0f s after it (%d answers 503 on the way)%n", POD, ready,
                        nodes, (System.nanoTime() - start) / 1e9, unavailable);
            } finally {
                if (Files.exists(manifest)) {
                    engine.podmanIn(dir, WAIT, "kube", "down", manifest.toString());
                    engine.podman(WAIT, "volume", "rm", "-f", "state-" + POD);
                }
                engine.compose(WAIT, "-p", PROJECT, "down", "-v");
            }
        }
    }

    /** The ConfigMap, the state claim, the Job's pod and the StatefulSet's first pod, as one YAML stream. */
    private static String pods() throws Exception {
        ObjectNode config = (ObjectNode) DeployFiles.yaml("k8s/configmap.yaml");
        ObjectNode data = (ObjectNode) config.get("data");
        for (String key : List.of("TRACESYNC_TOPICS_REPLICATION_FACTOR", "TRACESYNC_REPLICATION_FACTOR")) {
            data.put(key, "1");
        }
        data.put("TRACESYNC_NUM_STANDBY_REPLICAS", "0");
        JsonNode set = DeployFiles.yaml("k8s/statefulset.yaml");
        JsonNode claimTemplate = set.at("/spec/volumeClaimTemplates/0");
        String claim = claimTemplate.at("/metadata/name").asText() + "-" + POD;
        ObjectNode claimNode = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        claimNode.putObject("metadata").put("name", claim);
        claimNode.set("spec", claimTemplate.get("spec"));
        ObjectNode instance = pod(POD, set.at("/spec/template"));
        ObjectNode spec = (ObjectNode) instance.get("spec");
        ((ArrayNode) spec.get("volumes")).addObject().put("name", claimTemplate.at("/metadata/name").asText())
                .putObject("persistentVolumeClaim").put("claimName", claim);
        ObjectNode container = (ObjectNode) spec.at("/containers/0");
        container.put("image", image());
        expandEnv((ArrayNode) container.get("env"));
        JsonNode job = DeployFiles.yaml("k8s/topics-job.yaml");
        ObjectNode topics = pod(job.at("/metadata/name").asText(), job.at("/spec/template"));
        StringBuilder out = new StringBuilder();
        for (JsonNode doc : List.of(config, claimNode, topics, instance)) {
            out.append("---\n").append(DeployFiles.YAML.writeValueAsString(doc).replaceFirst("^---\n", ""));
        }
        return out.toString();
    }

    private static ObjectNode pod(String name, JsonNode template) {
        ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode metadata = pod.putObject("metadata").put("name", name);
        metadata.set("labels", template.at("/metadata/labels"));
        pod.set("spec", template.get("spec").deepCopy());
        return pod;
    }

    /** The image kustomization.yaml gives the StatefulSet's {@code tracesync}, from local storage. */
    private static String image() {
        for (JsonNode i : DeployFiles.yaml("k8s/kustomization.yaml").get("images")) {
            if (i.get("name").asText().equals("tracesync")) {
                return "localhost/tracesync:" + i.get("newTag").asText();
            }
        }
        throw new AssertionError("k8s/kustomization.yaml sets no tag for the image tracesync");
    }

    /** The downward API's pod name and IP as values, then {@code $(VAR)} expanded from the variables before. */
    private static void expandEnv(ArrayNode env) {
        Map<String, String> values = new HashMap<>();
        for (JsonNode e : env) {
            ObjectNode var = (ObjectNode) e;
            String field = var.at("/valueFrom/fieldRef/fieldPath").asText();
            if (field.equals("metadata.name") || field.equals("status.podIP")) {
                var.remove("valueFrom");
                var.put("value", POD);
            }
            if (var.has("value")) {
                Matcher m = REFERENCE.matcher(var.get("value").asText());
                StringBuilder expanded = new StringBuilder();
                while (m.find()) {
                    m.appendReplacement(expanded, Matcher.quoteReplacement(values.getOrDefault(m.group(1),
                            m.group())));
                }
                m.appendTail(expanded);
                var.put("value", expanded.toString());
                values.put(var.get("name").asText(), expanded.toString());
            }
        }
    }

    private static void awaitReady(PodmanEngine engine) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!health(engine).path("ready").asBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError(POD + " not ready after " + WAIT + ": "
                        + engine.logs(POD + "-tracesync"));
            }
            Thread.sleep(2000);
        }
    }

    private static JsonNode health(PodmanEngine engine) throws Exception {
        try {
            return JSON.readTree(curl(engine, "/health"));
        } catch (AssertionError notYet) {
            return JSON.createObjectNode();
        }
    }

    /** The compose file's simulator command, run on the stack's network; the number of nodes it simulated. */
    private static int importSimulatedCluster(PodmanEngine engine) throws Exception {
        JsonNode simulator = DeployFiles.yaml("docker-compose.yml").at("/services/simulator");
        List<String> cmd = new ArrayList<>(List.of("run", "--rm", "--network", PROJECT + "_default",
                "--entrypoint", simulator.at("/entrypoint/0").asText(), "localhost/" + simulator.get("image").asText()));
        for (int i = 1; i < simulator.get("entrypoint").size(); i++) {
            cmd.add(simulator.at("/entrypoint/" + i).asText());
        }
        String command = simulator.at("/command/0").asText();
        cmd.add(command);
        engine.podman(WAIT, cmd.toArray(String[]::new));
        Matcher nodes = Pattern.compile("--nodes (\\d+)").matcher(command);
        if (!nodes.find()) {
            throw new AssertionError("the simulator's command names no --nodes: " + command);
        }
        return Integer.parseInt(nodes.group(1));
    }

    /**
     * Waits until the pod publishes a bounded factor for each of {@code nodes}; a 503 (the network task starting or
     * rebalancing, with Retry-After) is an answer to ask again. The number of such answers.
     */
    private static int awaitFactors(PodmanEngine engine, int nodes) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        int bounded = 0;
        int unavailable = 0;
        String last = "";
        while (bounded < nodes) {
            if (System.nanoTime() > end) {
                throw new AssertionError(POD + " published " + bounded + " of " + nodes + " nodes' factors in " + WAIT
                        + "; the last answer " + last + "; " + engine.logs(POD + "-tracesync"));
            }
            Thread.sleep(2000);
            Answer answer = get(engine, "/factors");
            last = answer.toString();
            if (answer.status() == 503) {
                unavailable++;
                continue;
            }
            assertEquals(200, answer.status(), last);
            bounded = 0;
            for (JsonNode f : JSON.readTree(answer.body()).get("factors")) {
                bounded += f.get("up_ps").isNull() ? 0 : 1;
            }
        }
        JsonNode group = JSON.readTree(curl(engine, "/health")).get("group");
        assertEquals("STABLE", group.get("state").asText(), group::toString);
        assertEquals(1, group.get("members").asInt(), group::toString);
        return unavailable;
    }

    private record Answer(int status, String body) {
    }

    /** An HTTP GET inside the pod, whatever its status. */
    private static Answer get(PodmanEngine engine, String path) throws Exception {
        String out = engine.podman(Duration.ofMinutes(1), "exec", POD + "-tracesync", "curl", "-sS", "-w",
                "\n%{http_code}", "http://localhost:8080" + path);
        int cut = out.lastIndexOf('\n');
        return new Answer(Integer.parseInt(out.substring(cut + 1).strip()), out.substring(0, cut));
    }

    /** An HTTP GET inside the pod (the manifests publish no host port), its body; an AssertionError unless 200. */
    private static String curl(PodmanEngine engine, String path) throws Exception {
        Answer answer = get(engine, path);
        if (answer.status() != 200) {
            throw new AssertionError(path + " answered " + answer);
        }
        return answer.body();
    }
}
