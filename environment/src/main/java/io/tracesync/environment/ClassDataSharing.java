package io.tracesync.environment;

import java.nio.file.Path;
import java.util.List;

/**
 * JVM options that keep a child JVM's classes in a class-data-sharing archive in the cache, created by the first
 * run and refreshed by the JVM when the classpath changes (JDK 19+; older JVMs start without one). It roughly
 * halves the start of the broker and the registry.
 */
final class ClassDataSharing {
    private static final int AUTO_ARCHIVE_FEATURE = 19;

    private ClassDataSharing() {}

    static List<String> options(Path java, String name) {
        int feature = JavaRuntimes.featureVersionOf(java);
        if (feature < AUTO_ARCHIVE_FEATURE) {
            return List.of();
        }
        Path archive = CacheDirectory.root().resolve(name + "-java" + feature + ".jsa");
        return List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive);
    }
}
