package io.tracesync.environment;

import java.nio.file.Path;

/** {@code ~/.cache/tracesync}: what outlives one environment (the unpacked registry, class-data archives). */
final class CacheDirectory {
    private CacheDirectory() {}

    static Path root() {
        return Path.of(System.getProperty("user.home"), ".cache", "tracesync");
    }
}
