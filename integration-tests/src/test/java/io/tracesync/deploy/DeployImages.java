package io.tracesync.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The images {@code docker-compose.yml} names, built on Podman once per test run: the broker's and the registry's
 * from {@code podman/}, tracesync's production image and its tools target from the Dockerfile, on base images made
 * from Debian's packages ({@code podman/base-images.sh}, only when missing).
 */
final class DeployImages {

    private static final Duration BUILD = Duration.ofMinutes(20);
    private static boolean built;

    private DeployImages() {
    }

    static synchronized void build(PodmanEngine engine) throws Exception {
        if (built) {
            return;
        }
        if (!engine.hasImage("localhost/tracesync-build-base:bookworm")
                || !engine.hasImage("localhost/tracesync-runtime-base:bookworm")
                || !engine.hasImage("localhost/tracesync-registry-base:trixie")) {
            engine.script(BUILD, "podman/base-images.sh");
        }
        JsonNode services = DeployFiles.yaml("docker-compose.yml").get("services");
        List<String> bases = List.of("--build-arg", "BUILD_IMAGE=localhost/tracesync-build-base:bookworm",
                "--build-arg", "RUNTIME_IMAGE=localhost/tracesync-runtime-base:bookworm");
        image(engine, services.at("/kafka/image").asText(), List.of("-f", "podman/kafka.Dockerfile"));
        image(engine, services.at("/registry/image").asText(), List.of("-f", "podman/registry.Dockerfile"));
        image(engine, services.at("/tracesync/image").asText(), bases);
        List<String> tools = new ArrayList<>(bases);
        tools.addAll(List.of("--target", services.at("/simulator/build/target").asText()));
        image(engine, services.at("/simulator/image").asText(), tools);
        built = true;
    }

    private static void image(PodmanEngine engine, String name, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("build", "--network", "host", "-t", name));
        cmd.addAll(args);
        cmd.add(".");
        engine.podman(BUILD, cmd.toArray(String[]::new));
    }
}
