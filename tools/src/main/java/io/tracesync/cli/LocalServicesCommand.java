package io.tracesync.cli;

import io.tracesync.demo.UntilStopped;
import io.tracesync.environment.KafkaEnvironment;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tracesync local-services}: the demo's broker and registry alone, until Ctrl-C. */
@Command(name = "local-services",
        header = "Start a local Kafka broker and schema registry and keep them until Ctrl-C.",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local Kafka broker (KRaft) and schema registry (Apicurio, its Confluent-compatible "
                + "API), as the demo does, prints their addresses and keeps them until Ctrl-C: for run, import, "
                + "replay and the client library against services of your own machine.",
                "Loopback only; the registry keeps its schemas in memory, the broker its data under --work."})
final class LocalServicesCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--work", paramLabel = "DIR", defaultValue = "demo/services",
            description = "Where the services keep their data and logs (default: ${DEFAULT-VALUE}).")
    Path work;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        err.println("starting Kafka and the schema registry...");
        err.flush();
        try (UntilStopped stop = new UntilStopped();
                KafkaEnvironment env = KafkaEnvironment.start(work, null, null)) {
            out.printf("bootstrap.servers=%s%nschema.registry.url=%s%n", env.bootstrapServers(), env.registryUrl());
            out.printf("%n  ./tracesync run --bootstrap-servers %s --schema-registry-url %s%n", env.bootstrapServers(),
                    env.registryUrl());
            out.printf("  export TRACESYNC_BOOTSTRAP=%s TRACESYNC_REGISTRY_URL=%s%n%nCtrl-C stops them.%n",
                    env.bootstrapServers(), env.registryUrl());
            out.flush();
            stop.await();
            err.println("stopping Kafka and the schema registry...");
            err.flush();
        }
        return 0;
    }
}
