package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.tracesync.streams.Settings;
import io.tracesync.streams.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * k8s/: every manifest decodes into its Kubernetes API type with no unknown field (KubernetesModel), and together
 * they deploy what an operator needs: state on persistent volumes, static membership, probes on the HTTP server,
 * restricted pods, configuration and credentials from a ConfigMap and Secrets, the application's output topics.
 */
class KubernetesManifestsTest {

    private static final JsonNode KUSTOMIZATION = DeployFiles.yaml("k8s/kustomization.yaml");
    private static final Map<String, HasMetadata> MANIFESTS = new LinkedHashMap<>();

    @BeforeAll
    static void readEveryManifest() {
        for (JsonNode file : KUSTOMIZATION.path("resources")) {
            MANIFESTS.put(file.asText(), KubernetesModel.read(file.asText(), DeployFiles.yaml("k8s/" + file.asText())));
        }
    }

    private static <T extends HasMetadata> List<T> all(Class<T> type) {
        return MANIFESTS.values().stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static <T extends HasMetadata> T one(Class<T> type) {
        List<T> all = all(type);
        assertEquals(1, all.size(), type.getSimpleName());
        return all.get(0);
    }

    private static StatefulSet statefulSet() {
        return one(StatefulSet.class);
    }

    private static PodSpec pod() {
        return statefulSet().getSpec().getTemplate().getSpec();
    }

    private static Container app() {
        assertEquals(1, pod().getContainers().size());
        return pod().getContainers().get(0);
    }

    private static Map<String, String> config() {
        return one(ConfigMap.class).getData();
    }

    private static Service service(boolean headless) {
        return all(Service.class).stream().filter(s -> "None".equals(s.getSpec().getClusterIP()) == headless)
                .findFirst().orElseThrow(() -> new AssertionError(headless ? "a headless Service" : "a Service"));
    }

    private static EnvVar env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(c.getName() + " sets " + name));
    }

    private static int envIndex(Container c, String name) {
        return c.getEnv().indexOf(env(c, name));
    }

    /** The container port a probe's or Service's port names (by name or number). */
    private static ContainerPort port(IntOrString port) {
        return app().getPorts().stream()
                .filter(p -> port.getIntVal() != null ? port.getIntVal().equals(p.getContainerPort())
                        : port.getStrVal().equals(p.getName()))
                .findFirst().orElseThrow(() -> new AssertionError("no container port " + port));
    }

    private static int httpPort() {
        return Integer.parseInt(config().get("TRACESYNC_HTTP_PORT"));
    }

    private static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return !selector.isEmpty() && labels.entrySet().containsAll(selector.entrySet());
    }

    @Test
    void kustomizationListsEveryManifestAndNoNamespace() throws IOException {
        Set<String> files;
        try (Stream<Path> list = Files.list(DeployFiles.path("k8s"))) {
            files = list.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals("kustomization.yaml"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(files, new TreeSet<>(MANIFESTS.keySet()));
        assertTrue(KUSTOMIZATION.path("namespace").isMissingNode(), "namespace-agnostic");
        MANIFESTS.forEach((file, m) -> assertNull(m.getMetadata().getNamespace(), file + " names no namespace"));
        JsonNode image = KUSTOMIZATION.path("images").path(0);
        assertEquals(app().getImage(), image.path("name").asText(), "kustomize sets the application's image");
        assertEquals(DeployFiles.projectVersion(), image.path("newTag").asText());
    }

    @Test
    void stateLivesOnAPersistentVolumePerPod() {
        StatefulSet s = statefulSet();
        assertEquals(service(true).getMetadata().getName(), s.getSpec().getServiceName());
        assertEquals(1, s.getSpec().getVolumeClaimTemplates().size());
        PersistentVolumeClaim claim = s.getSpec().getVolumeClaimTemplates().get(0);
        assertEquals(List.of("ReadWriteOnce"), claim.getSpec().getAccessModes());
        assertNotNull(claim.getSpec().getResources().getRequests().get("storage"));
        String stateDir = config().get("TRACESYNC_STATE_DIR");
        assertEquals(DockerfileTest.STATE_DIR, stateDir);
        assertTrue(app().getVolumeMounts().stream().anyMatch(m -> m.getName().equals(claim.getMetadata().getName())
                && m.getMountPath().equals(stateDir)), "the claim is mounted at the state directory");
    }

    @Test
    void staticMembershipAndApplicationServerComeFromTheDownwardApi() {
        Container c = app();
        assertEquals("metadata.name", env(c, "POD_NAME").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("status.podIP", env(c, "POD_IP").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("$(POD_NAME)", env(c, "TRACESYNC_GROUP_INSTANCE_ID").getValue());
        assertEquals("$(POD_IP):" + httpPort(), env(c, "TRACESYNC_APPLICATION_SERVER").getValue());
        // $(VAR) expands only variables defined earlier in the list.
        assertTrue(envIndex(c, "POD_NAME") < envIndex(c, "TRACESYNC_GROUP_INSTANCE_ID"), "POD_NAME first");
        assertTrue(envIndex(c, "POD_IP") < envIndex(c, "TRACESYNC_APPLICATION_SERVER"), "POD_IP first");
        assertEquals("group.instance.id", ConfigKeys.checked("TRACESYNC_GROUP_INSTANCE_ID"));
        assertEquals("application.server", ConfigKeys.checked("TRACESYNC_APPLICATION_SERVER"));
    }

    @Test
    void probesAndServicesReachTheHttpServer() {
        Container c = app();
        HTTPGetAction ready = c.getReadinessProbe().getHttpGet();
        HTTPGetAction live = c.getLivenessProbe().getHttpGet();
        assertEquals("/health/ready", ready.getPath());
        assertEquals("/health/live", live.getPath());
        assertEquals("0.0.0.0", config().get("TRACESYNC_HTTP_HOST"), "probes come from outside the pod");
        assertEquals(httpPort(), port(ready.getPort()).getContainerPort());
        assertEquals(httpPort(), port(live.getPort()).getContainerPort());
        for (Service s : all(Service.class)) {
            assertFalse(s.getSpec().getPorts().isEmpty());
            s.getSpec().getPorts().forEach(p -> assertEquals(httpPort(), port(p.getTargetPort()).getContainerPort(),
                    s.getMetadata().getName()));
        }
        assertEquals("ClusterIP", service(false).getSpec().getType());
        Map<String, String> annotations = statefulSet().getSpec().getTemplate().getMetadata().getAnnotations();
        assertEquals(String.valueOf(httpPort()), annotations.get("prometheus.io/port"));
        assertEquals("/metrics", annotations.get("prometheus.io/path"));
    }

    @Test
    void selectorsMatchTheApplicationsPodsAndNoOthers() {
        StatefulSet s = statefulSet();
        Map<String, String> appLabels = s.getSpec().getTemplate().getMetadata().getLabels();
        Map<String, String> jobLabels = one(Job.class).getSpec().getTemplate().getMetadata().getLabels();
        List<Map<String, String>> selectors = new ArrayList<>();
        selectors.add(s.getSpec().getSelector().getMatchLabels());
        all(Service.class).forEach(svc -> selectors.add(svc.getSpec().getSelector()));
        PodDisruptionBudget pdb = one(PodDisruptionBudget.class);
        selectors.add(pdb.getSpec().getSelector().getMatchLabels());
        for (Map<String, String> selector : selectors) {
            assertTrue(selects(selector, appLabels), selector + " selects " + appLabels);
            assertFalse(selects(selector, jobLabels), selector + " leaves out the topics Job's pod " + jobLabels);
        }
        assertTrue(pdb.getSpec().getMaxUnavailable().getIntVal() < s.getSpec().getReplicas(),
                "a drain leaves an instance running");
    }

    @Test
    void podsRunAsNonRootOnAReadOnlyRootWithNoCapabilities() {
        PodSpec job = one(Job.class).getSpec().getTemplate().getSpec();
        for (PodSpec pod : List.of(pod(), job)) {
            assertTrue(pod.getSecurityContext().getRunAsNonRoot());
            assertNotEquals(0L, pod.getSecurityContext().getRunAsUser());
            assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
            for (Container c : pod.getContainers()) {
                SecurityContext sc = c.getSecurityContext();
                assertTrue(sc.getReadOnlyRootFilesystem(), c.getName());
                assertFalse(sc.getAllowPrivilegeEscalation(), c.getName());
                assertEquals(List.of("ALL"), sc.getCapabilities().getDrop(), c.getName());
                assertEquals("RuntimeDefault", sc.getSeccompProfile().getType(), c.getName());
                for (String r : List.of("cpu", "memory")) {
                    assertNotNull(c.getResources().getRequests().get(r), c.getName() + " requests " + r);
                    assertNotNull(c.getResources().getLimits().get(r), c.getName() + " limits " + r);
                }
                VolumeMount tmp = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp"))
                        .findFirst().orElseThrow(() -> new AssertionError(c.getName() + " has a writable /tmp"));
                assertTrue(pod.getVolumes().stream().anyMatch(v -> v.getName().equals(tmp.getName())
                        && v.getEmptyDir() != null), "/tmp is an emptyDir");
            }
        }
        assertEquals(Long.valueOf(DockerfileTest.FILE.runtime().last("USER")), pod().getSecurityContext().getRunAsUser(),
                "the image's user");
    }

    @Test
    void configurationComesFromTheConfigMapAndCredentialsFromSecrets() {
        Container c = app();
        assertEquals(one(ConfigMap.class).getMetadata().getName(),
                c.getEnvFrom().get(0).getConfigMapRef().getName());
        config().keySet().forEach(ConfigKeys::checked);
        c.getEnv().stream().map(EnvVar::getName).filter(n -> n.startsWith(ConfigKeys.PREFIX))
                .forEach(ConfigKeys::checked);
        EnvVar jaas = env(c, "TRACESYNC_SASL_JAAS_CONFIG");
        assertEquals("sasl.jaas.config", ConfigKeys.checked(jaas.getName()));
        for (EnvVar e : c.getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                assertNull(e.getValue());
                assertTrue(e.getValueFrom().getSecretKeyRef().getOptional(), e.getName() + ": optional");
                assertEquals(ConfigKeys.keyOf(e.getName()), e.getValueFrom().getSecretKeyRef().getKey(),
                        "the Secret's key is the configuration key");
                assertTrue(Settings.of(Map.of(ConfigKeys.keyOf(e.getName()), "s3cret")).describe()
                        .contains("[hidden]"), e.getName() + " is never printed");
            }
        }
        assertNotNull(jaas.getValueFrom().getSecretKeyRef(), "the JAAS configuration from a Secret");
    }

    @Test
    void topicsJobCreatesTheTopicsTheApplicationCreates() {
        Container c = one(Job.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("apache/kafka:" + DeployFiles.pom("pom.xml", "/project/properties/kafka.version"), c.getImage());
        Map<String, String> fromConfig = Map.of("BOOTSTRAP", "TRACESYNC_BOOTSTRAP_SERVERS",
                "PARTITIONS", "TRACESYNC_TOPICS_PARTITIONS", "REPLICATION", "TRACESYNC_TOPICS_REPLICATION_FACTOR");
        fromConfig.forEach((variable, key) -> {
            var ref = env(c, variable).getValueFrom().getConfigMapKeyRef();
            assertEquals(one(ConfigMap.class).getMetadata().getName(), ref.getName());
            assertEquals(key, ref.getKey());
            assertTrue(config().containsKey(key), key);
        });
        String script = String.join("\n", c.getArgs());
        assertTrue(script.contains("--create --if-not-exists --replication-factor \"$REPLICATION\""), script);
        int partitions = Integer.parseInt(config().get("TRACESYNC_TOPICS_PARTITIONS"));
        Topics topics = new Topics(Settings.of(Map.of("topics.partitions", String.valueOf(partitions))));
        assertEquals(expected(topics.outputs(), partitions), created(script));
    }

    /** Each {@code create --topic T --partitions P [--config K=V]} line of the script, as "T P [K=V]". */
    private static List<String> created(String script) {
        Matcher m = Pattern.compile("(?m)^create (.*)$").matcher(script);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1).replace("--topic ", "").replace("--partitions ", "").replace("--config ", "").strip());
        }
        return out;
    }

    private static List<String> expected(List<NewTopic> outputs, int configured) {
        return outputs.stream().map(t -> t.name() + " "
                + (t.numPartitions() == configured ? "\"$PARTITIONS\"" : String.valueOf(t.numPartitions()))
                + (t.configs() == null ? Map.<String, String>of() : t.configs()).entrySet().stream()
                        .sorted(Map.Entry.comparingByKey()).map(e -> " " + e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining()))
                .toList();
    }

    /**
     * k8s/streams-protocol/: the base with its ConfigMap patched (a strategic merge of the data), whose configuration
     * the application accepts: the streams protocol on one trace topic, a session the group can keep.
     */
    @Test
    void theStreamsProtocolOverlayPatchesTheConfigurationIntoOneTheApplicationAccepts() {
        JsonNode overlay = DeployFiles.yaml("k8s/streams-protocol/kustomization.yaml");
        assertEquals(List.of("../"), StreamSupport.stream(overlay.path("resources").spliterator(), false)
                .map(JsonNode::asText).toList(), "everything of the base");
        String patchFile = overlay.path("patches").path(0).path("path").asText();
        ConfigMap patch = (ConfigMap) KubernetesModel.read(patchFile,
                DeployFiles.yaml("k8s/streams-protocol/" + patchFile));
        assertEquals(one(ConfigMap.class).getMetadata().getName(), patch.getMetadata().getName(), "patches the base's");
        Map<String, String> merged = new LinkedHashMap<>(config());
        merged.putAll(patch.getData());
        Map<String, String> keys = new LinkedHashMap<>();
        merged.forEach((name, value) -> keys.put(ConfigKeys.checked(name), value));
        Settings settings = Settings.of(keys);
        assertEquals("streams", settings.get("group.protocol"));
        assertFalse(settings.get("traces.topic").isBlank(), "the protocol reads one trace topic");
        int session = Integer.parseInt(settings.get("session.timeout.ms"));
        int heartbeat = Integer.parseInt(settings.get("heartbeat.interval.ms"));
        assertTrue(heartbeat * 3 <= session, "three heartbeats a session");
    }

    @Test
    void everyKindIsThereOnce() {
        List<String> kinds = StreamSupport.stream(KUSTOMIZATION.path("resources").spliterator(), false)
                .map(f -> MANIFESTS.get(f.asText()).getKind()).sorted().toList();
        assertEquals(List.of("ConfigMap", "Job", "PodDisruptionBudget", "Service", "Service", "StatefulSet"), kinds);
    }
}
