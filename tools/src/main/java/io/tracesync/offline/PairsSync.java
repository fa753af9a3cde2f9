package io.tracesync.offline;

import io.tracesync.console.ProgressBar;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.files.PairsCsv;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The offline synchronization of a matched-pairs file: the pairs read in canonical order ({@link CanonicalPairs}),
 * every link's hull, the network's factors ({@link SyncReport}), printed as a table or JSON.
 */
public final class PairsSync {

    /**
     * What to read ({@code -}: standard input) and how to synchronize and report it: at the end of the pairs, or at
     * the {@code at} times from the pairs around them ({@link LinksAround}), or with {@code live} from the pairs up
     * to them alone.
     */
    public record Options(String pairs, LinkOptions link, NetworkOptions network, List<Long> at, boolean live,
            boolean json) {
    }

    private final Options options;
    private final InputStream stdin;
    private final PrintWriter out;
    private final PrintWriter err;

    public PairsSync(Options options, InputStream stdin, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.stdin = stdin;
        this.out = out;
        this.err = err;
    }

    /** Runs it: 0 when synchronized, 2 for bad input (reported). */
    public int run() throws IOException {
        CanonicalPairs read = new CanonicalPairs();
        Map<LinkKey, ConvexHullLink> links;
        long count;
        String source = options.pairs().equals("-") ? "<stdin>" : options.pairs();
        try (BufferedReader in = open()) {
            count = PairsCsv.read(in, source, read::add);
            if (count == 0) {
                throw new IllegalArgumentException(source + " holds no pairs (sender,send_ns,receiver,recv_ns)");
            }
            links = read.links(options.link());
        } catch (PairsCsv.InputException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        SyncReport report;
        try {
            report = options.at().isEmpty() ? SyncReport.build(links, options.network())
                    : SyncReport.at(read, links, options.link(), options.network(), options.at(), options.live());
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        if (options.json()) {
            out.println(report.toJson());
        } else {
            out.print(report.toText(count));
        }
        out.flush();
        report.warnings().forEach(err::println);
        err.flush();
        return 0;
    }

    private BufferedReader open() throws IOException {
        if (options.pairs().equals("-")) {
            return new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        }
        Path path = Path.of(options.pairs());
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new IllegalArgumentException("cannot read " + path + (Files.isDirectory(path) ? ": a directory, not "
                    + "a pairs file" : Files.exists(path) ? "" : ": no such file"));
        }
        return new BufferedReader(new InputStreamReader(ProgressBar.wrap(Files.newInputStream(path), Files.size(path),
                err, "reading " + path.getFileName()), StandardCharsets.UTF_8));
    }
}
