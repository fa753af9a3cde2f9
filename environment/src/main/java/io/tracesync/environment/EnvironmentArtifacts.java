package io.tracesync.environment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The broker classpath and the registry distribution, as tracesync-environment-artifacts recorded them at build
 * time: absolute paths in the local Maven repository.
 */
final class EnvironmentArtifacts {
    private static final String RESOURCE = "/io/tracesync/environment/artifacts.properties";

    private final Properties properties;

    private EnvironmentArtifacts(Properties properties) {
        this.properties = properties;
    }

    static EnvironmentArtifacts load() throws IOException {
        try (InputStream in = EnvironmentArtifacts.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is not on the classpath (tracesync-environment-artifacts missing)");
            }
            Properties properties = new Properties();
            properties.load(in);
            return new EnvironmentArtifacts(properties);
        }
    }

    /** The classpath of {@code kafka_2.13} with a Log4j 2 backend; every entry exists. */
    String kafkaClasspath() throws IOException {
        String classpath = get("kafka.classpath");
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            requireFile(entry);
        }
        return classpath;
    }

    /** The Apicurio Registry distribution archive ({@code .tar.gz}). */
    Path registryDistribution() throws IOException {
        return requireFile(get("registry.distribution"));
    }

    String registryVersion() throws IOException {
        return get("registry.version");
    }

    private String get(String key) throws IOException {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank() || value.startsWith("${")) {
            throw new IOException(RESOURCE + " has no value for " + key);
        }
        return value;
    }

    private static Path requireFile(String path) throws IOException {
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is missing from the local Maven repository; rebuild with"
                    + " ./mvnw -B -pl environment -am install -DskipTests");
        }
        return file;
    }
}
