package io.tracesync.streams;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.UUID;

/**
 * State directories for tests of the topology on the test driver: each test its own, all in one directory of the
 * test JVM's. The driver removes what its application wrote when it closes; the directories themselves go when the
 * JVM exits.
 */
public final class TestStateDirs {

    private static final File ROOT = root();

    private TestStateDirs() {
    }

    /** A state directory no other test uses, not yet created. */
    public static String fresh() {
        File dir = new File(ROOT, UUID.randomUUID().toString());
        dir.deleteOnExit();
        return dir.getPath();
    }

    private static File root() {
        try {
            File root = Files.createTempDirectory("tracesync-topology-tests-").toFile();
            // deleted after the directories registered later, once they are empty
            root.deleteOnExit();
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
