package io.tracesync.faults;

import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.sim.MalformedRecords.Kind;
import io.tracesync.sim.PiecewiseLinearClock;
import io.tracesync.sim.SimulatedTraces;
import io.tracesync.streams.FactorsTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What a fault run checks on committed output only, once the faults are over: the last factors are the offline
 * answer, every node's factor versions count up with no gap and no repeat (nothing lost or written twice), the
 * factor history holds only records {@code sync.factors} committed, every committed factor holds the true clocks at
 * its anchor, and every malformed record is a dead letter exactly once. Each returns the problems it found.
 */
final class CommittedOutputChecks {

    private CommittedOutputChecks() {
    }

    /** Waits until every node's latest committed factor is the offline one; the last difference, or null. */
    static String awaitAnswer(FactorWatch watch, Map<String, NodeFactor> offline, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, SyncFactor> latest = new TreeMap<>();
            watch.all().forEach(s -> latest.put(s.record().key(), s.record().value()));
            String mismatch = FactorsTopic.differences(offline, latest);
            if (mismatch == null || System.nanoTime() > deadline) {
                return mismatch;
            }
            Thread.sleep(500);
        }
    }

    /**
     * Every node's versions must run 1, 2, 3, … in the order committed: none lost, none written twice (a record
     * at an offset seen before would be this reader's fault, and is told apart).
     */
    static List<String> versionGaps(List<FactorWatch.Seen> factors) {
        Map<String, FactorWatch.Seen> last = new HashMap<>();
        Set<String> offsets = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (FactorWatch.Seen s : factors) {
            ConsumerRecord<String, SyncFactor> r = s.record();
            String at = r.partition() + "@" + r.offset();
            if (!offsets.add(at)) {
                problems.add(r.key() + ": the record at " + at + " read twice");
                continue;
            }
            long version = r.value().getVersion();
            FactorWatch.Seen before = last.get(r.key());
            long previous = before == null ? 0 : before.record().value().getVersion();
            if (version != previous + 1) {
                problems.add(r.key() + ": version " + version + " committed at " + at + ", seen at " + s.atMs()
                        + ", after version " + previous + (before == null ? "" : " at " + before.record().partition()
                        + "@" + before.record().offset() + ", seen at " + before.atMs()));
            }
            last.put(r.key(), s);
        }
        return problems;
    }

    /**
     * The factor history as committed, against the factors committed: every record one that {@code sync.factors}
     * committed too (the same node, version and value), each node's versions rising from its first.
     */
    static List<String> historyProblems(List<ConsumerRecord<String, SyncFactor>> history,
            List<FactorWatch.Seen> factors) {
        Map<String, SyncFactor> published = new HashMap<>();
        factors.forEach(s -> published.put(s.record().key() + " " + s.record().value().getVersion(),
                s.record().value()));
        Map<String, Long> last = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (ConsumerRecord<String, SyncFactor> r : history) {
            long version = r.value().getVersion();
            String at = r.partition() + "@" + r.offset();
            if (!r.value().equals(published.get(r.key() + " " + version))) {
                problems.add(r.key() + ": history version " + version + " at " + at + " is not the one "
                        + "sync.factors committed");
            }
            Long before = last.put(r.key(), version);
            if (before == null ? version != 1 : version <= before) {
                problems.add(r.key() + ": history version " + version + " at " + at + " after "
                        + (before == null ? "none (the first version is 1)" : "version " + before));
            }
        }
        factors.stream().map(s -> s.record().key()).distinct().filter(n -> !last.containsKey(n))
                .forEach(n -> problems.add(n + ": factors committed but no history"));
        return problems;
    }

    /** Every committed factor with a bound must hold the true clocks at its anchor (a reference's is exact). */
    static List<String> outsideTruth(List<FactorWatch.Seen> factors, SimulatedTraces cluster) {
        List<String> problems = new ArrayList<>();
        for (FactorWatch.Seen s : factors) {
            SyncFactor r = s.record().value();
            Factor f = PublishedFactor.of(r).factor();
            if (!f.bounded() || r.getReference().equals(s.record().key())) {
                continue;
            }
            PiecewiseLinearClock node = cluster.clock(s.record().key());
            long t = node.trueAt(f.anchorNs());
            long local = node.localAt(t);
            long reference = cluster.clock(r.getReference()).localAt(t);
            double errorPs = f.toReference().apply(local).subtract(DoubleDouble.of(reference)).hi() * 1000;
            if (errorPs > f.downAtPs(local) || -errorPs > f.upAtPs(local)) {
                problems.add(String.format(Locale.ROOT, "%s version %d: true error %.3f ns outside its bound "
                        + "(+%d / -%d ps)", s.record().key(), r.getVersion(), errorPs / 1000, f.upAtPs(local),
                        f.downAtPs(local)));
            }
        }
        return problems;
    }

    /**
     * Dead letters must be the malformed records, each once: the same count of each kind, and no source record
     * (topic, partition, offset, as Kafka Streams' dead-letter headers name it) twice.
     */
    static List<String> deadLetterProblems(List<ConsumerRecord<byte[], byte[]>> dead, Map<Kind, Long> expected) {
        List<String> problems = new ArrayList<>();
        Map<Kind, Long> got = new EnumMap<>(Kind.class);
        Set<String> sources = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> d : dead) {
            String message = header(d, "__streams.errors.message");
            Kind kind = message == null ? null : Kind.of(message);
            if (kind == null) {
                problems.add("a dead letter of no malformed kind: " + message);
                continue;
            }
            got.merge(kind, 1L, Long::sum);
            String source = header(d, "__streams.errors.topic") + "-" + header(d, "__streams.errors.partition") + "@"
                    + header(d, "__streams.errors.offset");
            if (source.contains("null")) {
                problems.add("a dead letter that does not name its source record: " + message);
            } else if (!sources.add(source)) {
                problems.add("a record twice in the dead-letter topic: " + source);
            }
        }
        if (!got.equals(expected)) {
            problems.add("dead letters by kind " + got + ", malformed records by kind " + expected);
        }
        return problems;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        Header h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
