package io.tracesync.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Java runtimes for child processes: the newest installed JDK, or one of a minimum version for a child that
 * needs a newer Java than this one. Environment variable {@value #OVERRIDE} names a Java home (or its
 * {@code bin/java}) to use instead of searching.
 */
public final class JavaRuntimes {
    static final String OVERRIDE = "TRACESYNC_REGISTRY_JAVA";
    private static final List<Path> INSTALL_ROOTS = List.of(
            Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt/java"),
            Path.of("/Library/Java/JavaVirtualMachines"));

    private JavaRuntimes() {}

    /** The {@code java} launcher of the newest JDK found, this JVM's unless a newer one is installed. */
    public static Path newest() {
        return installed(Runtime.version().feature()).orElseGet(
                () -> launcher(Path.of(System.getProperty("java.home"))));
    }

    /**
     * The {@code java} launcher of the newest JDK of at least {@code feature} (e.g. 21): {@value #OVERRIDE} if
     * set, else the running JVM, {@code JAVA_HOME} or a JDK in the usual installation directories.
     */
    public static Path atLeast(int feature) throws IOException {
        String override = System.getenv(OVERRIDE);
        if (override != null && !override.isBlank()) {
            return fromOverride(Path.of(override));
        }
        return installed(feature).orElseThrow(() -> new IOException(
                "no Java " + feature + "+ found (searched java.home, JAVA_HOME, " + INSTALL_ROOTS + ");"
                        + " install one or set " + OVERRIDE + " to its home"));
    }

    /** The feature version of a {@code bin/java} launcher's JDK, 0 if unknown. */
    static int featureVersionOf(Path launcher) {
        Path home = launcher.toAbsolutePath().getParent().getParent();
        return featureVersion(home).orElse(0);
    }

    private static Optional<Path> installed(int feature) {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        Optional.ofNullable(System.getenv("JAVA_HOME")).map(Path::of).ifPresent(homes::add);
        for (Path root : INSTALL_ROOTS) {
            homes.addAll(children(root));
        }
        return newest(homes, feature).map(JavaRuntimes::launcher);
    }

    /** The newest of {@code homes} whose {@code release} file says Java {@code feature} or later. */
    static Optional<Path> newest(List<Path> homes, int feature) {
        return homes.stream()
                .filter(home -> Files.isExecutable(launcher(home)))
                .filter(home -> featureVersion(home).orElse(0) >= feature)
                .max(Comparator.comparingInt(home -> featureVersion(home).orElse(0)));
    }

    /** The feature version in a Java home's {@code release} file ({@code JAVA_VERSION="25.0.3"} is 25). */
    static OptionalInt featureVersion(Path home) {
        Properties release = new Properties();
        try (var in = Files.newInputStream(home.resolve("release"))) {
            release.load(in);
        } catch (IOException e) {
            return OptionalInt.empty();
        }
        String version = release.getProperty("JAVA_VERSION", "").replace("\"", "");
        String[] parts = version.split("[.+_-]");
        try {
            int first = Integer.parseInt(parts[0]);
            return OptionalInt.of(first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first);
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    private static Path fromOverride(Path path) throws IOException {
        Path java = Files.isDirectory(path) ? launcher(path) : path;
        if (!Files.isExecutable(java)) {
            throw new IOException(OVERRIDE + "=" + path + " is neither a Java home nor a java launcher");
        }
        return java;
    }

    private static Path launcher(Path home) {
        boolean windows = System.getProperty("os.name").startsWith("Windows");
        return home.resolve("bin").resolve(windows ? "java.exe" : "java");
    }

    private static List<Path> children(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(root)) {
            return entries.flatMap(dir -> Stream.of(dir, dir.resolve("Contents/Home"))).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
