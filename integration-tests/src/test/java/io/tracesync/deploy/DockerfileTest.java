package io.tracesync.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Dockerfile builds the jar the topology module packages and runs it as the deployment files expect. */
class DockerfileTest {

    static final Dockerfile FILE = Dockerfile.parse(DeployFiles.text("Dockerfile"));
    static final String STATE_DIR = "/var/lib/tracesync";
    static final String JAR = "/app/tracesync.jar";
    static final String TOOLS_JAR = "/app/tracesync-tools.jar";

    private static final String JAVA_RELEASE = DeployFiles.pom("pom.xml", "/project/properties/maven.compiler.release");

    /** The shaded jar's file name as topology/pom.xml makes it: {@code finalName-classifier.jar}. */
    static String shadedJarName() {
        String pom = "topology/pom.xml";
        String finalName = DeployFiles.pom(pom, "/project/build/finalName");
        if (finalName.isEmpty()) {
            finalName = DeployFiles.pom(pom, "/project/artifactId") + "-" + DeployFiles.pom(pom, "/project/parent/version");
        }
        String classifier = DeployFiles.pom(pom, "//plugin[artifactId='maven-shade-plugin']//shadedClassifierName");
        assertFalse(classifier.isEmpty(), "the shaded jar is attached with a classifier");
        return finalName + "-" + classifier + ".jar";
    }

    /** ENV instructions in the form {@code K=V K2=V2}, as one map. */
    static Map<String, String> env(Dockerfile.Stage stage) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String args : stage.all("ENV")) {
            for (String pair : args.split("\\s+")) {
                String[] kv = pair.split("=", 2);
                assertEquals(2, kv.length, "ENV " + args + ": use the KEY=VALUE form");
                env.put(kv[0], kv[1]);
            }
        }
        return env;
    }

    private static JsonNode json(String exec) throws Exception {
        return DeployFiles.YAML.readTree(exec);
    }

    @Test
    void buildsTheShadedJarWithTheWrapperOnAJdkOfTheProjectsRelease() {
        assertEquals(List.of("build", "build-tools", "tools", ""), FILE.stages().stream().map(Dockerfile.Stage::name)
                .toList(), "the build, the command line's target, and the production image last (the default)");
        Dockerfile.Stage build = FILE.stages().get(0);
        assertTrue(build.image().matches("maven:[\\d.]+-eclipse-temurin-" + JAVA_RELEASE), build.image());
        assertEquals(List.of("--mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests -pl topology -am package"),
                build.all("RUN"));
        String modules = DeployFiles.pom("pom.xml", "/project/modules");
        assertTrue(modules.contains("topology"), "topology is a module of the parent POM");
    }

    /** The base images are global build arguments, so that a builder without a registry can bring its own. */
    @Test
    void theBaseImagesAreBuildArgumentsWhoseDefaultsArePulled() {
        assertEquals(Set.of("BUILD_IMAGE", "RUNTIME_IMAGE"), FILE.args().keySet());
        assertEquals("${BUILD_IMAGE} AS build", FILE.stage("build").written());
        assertEquals("${RUNTIME_IMAGE} AS tools", FILE.stage("tools").written());
        assertEquals("${RUNTIME_IMAGE}", FILE.runtime().written());
        assertEquals(FILE.args().get("RUNTIME_IMAGE"), FILE.stage("tools").image(), "one runtime for both");
    }

    @Test
    void theToolsTargetRunsTheCommandLineOfTheRepository() throws Exception {
        assertEquals(List.of("--mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests -pl cli -am package"),
                FILE.stage("build-tools").all("RUN"));
        assertEquals("build", FILE.stage("build-tools").image(), "on top of the application's build");
        Dockerfile.Stage tools = FILE.stage("tools");
        assertEquals(List.of("--from=build-tools /src/cli/target/tracesync-cli-" + DeployFiles.projectVersion()
                + "-all.jar " + TOOLS_JAR), tools.all("COPY"));
        assertEquals(json("[\"java\", \"-jar\", \"" + TOOLS_JAR + "\"]"), json(tools.last("ENTRYPOINT")));
        assertTrue(FILE.runtime().all("COPY").stream().allMatch(c -> c.startsWith("--from=build ")),
                "the production image takes nothing of the tools");
    }

    @Test
    void copiesTheJarTheTopologyModuleBuilds() {
        Dockerfile.Stage build = FILE.stages().get(0);
        String built = Path.of(build.last("WORKDIR"), "topology/target", shadedJarName()).toString();
        assertEquals(List.of("--from=" + build.name() + " " + built + " " + JAR), FILE.runtime().all("COPY"));
        assertEquals("tracesync-topology-" + DeployFiles.projectVersion() + "-all.jar", shadedJarName());
    }

    @Test
    void runsTheJarOnATemurinJreAsANonRootUser() throws Exception {
        Dockerfile.Stage runtime = FILE.runtime();
        assertTrue(runtime.image().matches("eclipse-temurin:" + JAVA_RELEASE + "-jre(-[a-z]+)?"), runtime.image());
        String user = runtime.last("USER");
        assertNotNull(user, "USER is set");
        assertTrue(user.matches("\\d+"), "a numeric uid, so that Kubernetes can check runAsNonRoot: " + user);
        assertNotEquals(0, Integer.parseInt(user));
        assertEquals(json("[\"java\", \"-jar\", \"" + JAR + "\"]"), json(runtime.last("ENTRYPOINT")));
        assertEquals(json("[\"run\"]"), json(runtime.last("CMD")));
    }

    @Test
    void keepsStateOnAVolumeAndServesHttpOnEveryInterface() throws Exception {
        Dockerfile.Stage runtime = FILE.runtime();
        assertTrue(json(runtime.last("VOLUME")).toString().contains("\"" + STATE_DIR + "\""), runtime.last("VOLUME"));
        Map<String, String> env = env(runtime);
        assertEquals(STATE_DIR, env.get("TRACESYNC_STATE_DIR"));
        assertEquals("0.0.0.0", env.get("TRACESYNC_HTTP_HOST"));
        assertEquals(runtime.last("EXPOSE"), env.get("TRACESYNC_HTTP_PORT"));
        env.keySet().stream().filter(k -> k.startsWith(ConfigKeys.PREFIX)).forEach(ConfigKeys::checked);
        assertTrue(String.join(" ", runtime.all("RUN")).contains("chown " + runtime.last("USER") + ":0 " + STATE_DIR),
                "the state directory belongs to the image's user");
    }

    @Test
    void dockerignoreLeavesOutBuildOutputsButNoBuildInput() {
        List<PathMatcher> ignored = new ArrayList<>();
        for (String line : DeployFiles.text(".dockerignore").split("\n")) {
            String pattern = line.strip();
            if (!pattern.isEmpty() && !pattern.startsWith("#")) {
                assertFalse(pattern.startsWith("!"), "exceptions are not checked here: " + pattern);
                ignored.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
                if (pattern.startsWith("**/")) {
                    // Docker's ** also matches no directory at all.
                    ignored.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3)));
                }
            }
        }
        List<String> inputs = new ArrayList<>(List.of("mvnw", ".mvn/wrapper/maven-wrapper.properties", "pom.xml"));
        for (String module : DeployFiles.pom("pom.xml", "/project/modules").split("\\s+")) {
            inputs.add(module + "/pom.xml");
            inputs.add(module + "/src/main/java");
        }
        for (String input : inputs) {
            assertFalse(excluded(ignored, input), input + " is needed by the build stage");
        }
        for (String output : List.of("topology/target/classes", "target/x", ".git/HEAD")) {
            assertTrue(excluded(ignored, output), output + " stays out of the build context");
        }
    }

    /** Whether the path or one of its parent directories matches a pattern (as Docker excludes a directory). */
    private static boolean excluded(List<PathMatcher> ignored, String relative) {
        for (Path p = Path.of(relative); p != null; p = p.getParent()) {
            Path candidate = p;
            if (ignored.stream().anyMatch(m -> m.matches(candidate))) {
                return true;
            }
        }
        return false;
    }
}
