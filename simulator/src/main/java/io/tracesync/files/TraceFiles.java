package io.tracesync.files;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The trace files named on a command line: a file is itself; a directory is a run of {@code tracesync simulate}
 * (its {@code events/*.csv}), or else holds trace files directly (its {@code *.csv} whose first line is the
 * header). Each file once, in the order named, a directory's files by name.
 */
public final class TraceFiles {

    private TraceFiles() {
    }

    /** The files; an {@link InputException} names the first path that is missing or holds no trace file. */
    public static List<Path> resolve(List<Path> paths) throws IOException {
        Set<Path> files = new LinkedHashSet<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                List<Path> found = inDirectory(p);
                if (found.isEmpty()) {
                    throw new InputException(p + ": no trace files (neither events/*.csv nor *.csv starting with "
                            + "the header " + TraceCsv.HEADER + ")");
                }
                found.forEach(f -> files.add(f.toAbsolutePath().normalize()));
            } else if (Files.isRegularFile(p)) {
                if (!Files.isReadable(p)) {
                    throw new InputException(p + ": not readable");
                }
                files.add(p.toAbsolutePath().normalize());
            } else {
                throw new InputException(p + ": " + (Files.exists(p) ? "not a file or directory"
                        : "no such file or directory"));
            }
        }
        return new ArrayList<>(files);
    }

    private static List<Path> inDirectory(Path dir) throws IOException {
        Path events = dir.resolve("events");
        if (Files.isDirectory(events)) {
            return csv(events, false);
        }
        return csv(dir, true);
    }

    private static List<Path> csv(Path dir, boolean withHeaderOnly) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.getFileName().toString().endsWith(".csv") && Files.isRegularFile(f))
                    .sorted().toList()) {
                if (!withHeaderOnly || startsWithHeader(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private static boolean startsWithHeader(Path p) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(p, StandardCharsets.ISO_8859_1)) {
            String first = r.readLine();
            return first != null && first.strip().equals(TraceCsv.HEADER);
        }
    }

    /** A path that cannot be imported, with the reason. */
    public static final class InputException extends RuntimeException {
        public InputException(String message) {
            super(message);
        }
    }
}
