package io.tracesync.lttng;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real LTTng trace of docs/REAL-INPUTS.md, kept in the repository as {@code testdata/lttng-scp} (Eclipse Trace
 * Compass's test traces, EPL-2.0: its NOTICE.md), and what {@code import lttng} reads in it (the tables there): for
 * the command's tests here and the integration tests.
 */
public final class ScpTrace {

    /** The scp source's hostname, and its packet events ({@code inet_sock_local_out} + {@code _in}). */
    public static final String SOURCE = "VM1";
    public static final int SOURCE_EVENTS = 51;
    /** The scp destination's hostname, and its packet events. */
    public static final String DESTINATION = "VM3";
    public static final int DESTINATION_EVENTS = 49;
    public static final int EVENTS = SOURCE_EVENTS + DESTINATION_EVENTS;
    /** Matched pairs sent by the source, by the destination, and in all. */
    public static final int PAIRS_FROM_SOURCE = 24;
    public static final int PAIRS_FROM_DESTINATION = 22;
    public static final int PAIRS = PAIRS_FROM_SOURCE + PAIRS_FROM_DESTINATION;

    private ScpTrace() {
    }

    /** The trace's directory; fails (never skips) if it or babeltrace2 is missing. */
    public static Path path() {
        requireBabeltrace();
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve("mvnw"))) {
            root = root.getParent();
        }
        Path data = root == null ? null : root.resolve("testdata/lttng-scp");
        if (data == null || !Files.isDirectory(data.resolve("scp_src"))
                || !Files.isDirectory(data.resolve("scp_dest"))) {
            fail("the real LTTng trace is missing: expected testdata/lttng-scp/scp_src and scp_dest in the "
                    + "repository (docs/REAL-INPUTS.md); is this a complete clone?");
        }
        return data;
    }

    /** Fails unless Debian's babeltrace2, which reads CTF for {@code import lttng}, is installed. */
    public static void requireBabeltrace() {
        if (!Files.isExecutable(Path.of("/usr/bin/babeltrace2"))) {
            fail("/usr/bin/babeltrace2 is missing: install Debian's babeltrace2 package (.ci/run installs it), or "
                    + "leave these tests out: -DexcludedGroups=babeltrace2");
        }
    }
}
