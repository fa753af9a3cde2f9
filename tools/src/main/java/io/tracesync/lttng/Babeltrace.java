package io.tracesync.lttng;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's babeltrace2 command line (package {@code babeltrace2}) as a child process reading one CTF trace
 * directory. The CLI rather than the Python bindings ({@code python3-bt2}): one package, no interpreter, and its
 * text output is streamed line by line into {@link PrettyLine}. A trace of one data stream is read without
 * babeltrace2's muxer, which refuses traces whose packets overlap in time (the 2013 LTTng 2.1 traces of
 * docs/REAL-INPUTS.md: "Youngest upstream message iterator wrapper's timestamp is less than muxer's message
 * iterator's last returned timestamp"); several streams (one per CPU) are muxed, as they must be to come out in
 * time order.
 */
public final class Babeltrace {

    /** The Debian package providing the command. */
    public static final String PACKAGE = "babeltrace2";

    private static final Pattern HOSTNAME = Pattern.compile("(?m)^\\s*hostname\\s*=\\s*\"([^\"]*)\"\\s*;");
    private static final Pattern FREQ = Pattern.compile("(?m)^\\s*freq\\s*=\\s*(\\d+)\\s*;");

    /** No log lines on stderr: only babeltrace2's error report, whose root cause {@link #cause} quotes. */
    private static final String QUIET = "--log-level=NONE";

    private final Path executable;

    private Babeltrace(Path executable) {
        this.executable = executable;
    }

    /** The babeltrace2 on the PATH; a {@link TraceException} naming the package if there is none. */
    public static Babeltrace locate() {
        return locate(System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    /** The babeltrace2 in one of the directories of {@code path} (a PATH value). */
    static Babeltrace locate(String path) {
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "babeltrace2");
            if (Files.isExecutable(p)) {
                return new Babeltrace(p);
            }
        }
        throw new TraceException("babeltrace2 not found on the PATH: install Debian's " + PACKAGE
                + " package (apt-get install " + PACKAGE + ") to read LTTng (CTF) traces");
    }

    /** What the import needs of a trace's metadata: the hostname of its environment (or null), the clock rate. */
    public record Metadata(String hostname, long frequency) {
    }

    /** The trace's metadata, from {@code babeltrace2 -o ctf-metadata} (CTF 1.8). */
    public Metadata metadata(Path trace) {
        Child p = start(trace, List.of(executable.toString(), QUIET, "-o", "ctf-metadata",
                trace.toString()));
        try (BufferedReader in = reader(p)) {
            StringBuilder text = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                text.append(line).append('\n');
            }
            finish(trace, p);
            Matcher host = HOSTNAME.matcher(text);
            Matcher freq = FREQ.matcher(text);
            // CTF 1.8: a clock without freq runs at 1 GHz
            return new Metadata(host.find() ? host.group(1) : null,
                    freq.find() ? Long.parseLong(freq.group(1)) : 1_000_000_000L);
        } catch (IOException e) {
            throw new TraceException(trace + ": " + e.getMessage());
        } finally {
            p.stop();
        }
    }

    /** The event lines of a trace in its time order; close it to stop the child process. */
    public Lines lines(Path trace) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), QUIET));
        if (streams(trace) == 1) {
            command.addAll(List.of("run", "--component=src:source.ctf.fs",
                    "--params=inputs=[\"" + trace.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"]",
                    "--component=sink:sink.text.pretty", "--params=clock-cycles=true,no-delta=true,color=\"never\"",
                    "--connect=src:sink"));
        } else {
            command.addAll(List.of("--clock-cycles", "--no-delta", "--color=never", trace.toString()));
        }
        Child c = start(trace, command);
        return new Lines(trace, c, reader(c));
    }

    /** A running babeltrace2 and its output. */
    public final class Lines implements AutoCloseable {

        private final Path trace;
        private final Child child;
        private final BufferedReader in;
        private long number;

        private Lines(Path trace, Child child, BufferedReader in) {
            this.trace = trace;
            this.child = child;
            this.in = in;
        }

        /** The next line, or null at the end once babeltrace2 has exited with success. */
        public String next() {
            try {
                String line = in.readLine();
                if (line == null) {
                    finish(trace, child);
                } else {
                    number++;
                }
                return line;
            } catch (IOException e) {
                throw new TraceException(trace + ": " + e.getMessage());
            }
        }

        /** The number of the line last returned (1-based). */
        public long number() {
            return number;
        }

        /** Stops the process (by its PID) if it still runs. */
        @Override
        public void close() {
            child.stop();
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The data stream files of a trace directory: every regular file but its metadata. */
    static long streams(Path trace) {
        try (Stream<Path> s = Files.list(trace)) {
            return s.filter(f -> Files.isRegularFile(f) && !f.getFileName().toString().equals("metadata")
                    && !f.getFileName().toString().startsWith(".")).count();
        } catch (IOException e) {
            throw new TraceException(trace + ": " + e.getMessage());
        }
    }

    /** A started babeltrace2 and the file its error output goes to. */
    private record Child(Process process, Path errors) {

        void stop() {
            process.toHandle().destroy();
            try {
                Files.deleteIfExists(errors);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Child start(Path trace, List<String> command) {
        try {
            Path errors = Files.createTempFile("babeltrace2-", ".err");
            return new Child(new ProcessBuilder(command).redirectError(errors.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start(), errors);
        } catch (IOException e) {
            throw new TraceException(trace + ": cannot run babeltrace2: " + e.getMessage());
        }
    }

    private static BufferedReader reader(Child c) {
        return new BufferedReader(new InputStreamReader(c.process.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
    }

    /** Waits for the process; a {@link TraceException} with babeltrace2's own error if it failed. */
    private static void finish(Path trace, Child c) {
        try {
            int exit = c.process.waitFor();
            if (exit != 0) {
                throw new TraceException(trace + ": babeltrace2 cannot read it (exit code " + exit + ")"
                        + cause(c.errors));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TraceException(trace + ": interrupted");
        }
    }

    /** The root cause babeltrace2 reports (its last "CAUSED BY" paragraph), or its last line. */
    static String cause(Path errors) {
        List<String> lines;
        try {
            lines = Files.readAllLines(errors, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("CAUSED BY") || lines.get(i).startsWith("ERROR:")) {
                from = i + 1;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = Math.max(0, from < 0 ? lines.size() - 1 : from); i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (!l.isEmpty()) {
                out.append(out.length() == 0 ? "" : " ").append(l);
            }
        }
        return out.length() == 0 ? "" : ": " + out;
    }

    /** A trace that cannot be read, with the reason; the message starts with the trace's path. */
    public static final class TraceException extends RuntimeException {
        public TraceException(String message) {
            super(message);
        }
    }
}
