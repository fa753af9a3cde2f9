package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.LinkQuality;
import io.tracesync.core.link.PairEffect;
import io.tracesync.core.network.NetworkOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Replays a simulation's pairs through the link core (#2) and the network core (#3) as the online system would
 * see them: in true receive order, the true receive time serving only as the wall clock. Every {@code interval}
 * of true time (and after the last pair) every {@link FactorPolicy} is drained with the changed links (for
 * tracesync: pushed to the network core) and its changed factors are recorded with the drain time.
 */
public final class Replay {

    private final Function<LinkKey, LinkOptions> linkOptions;
    private final long intervalNs;
    private final List<FactorPolicy> policies;
    private final Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
    private final Map<LinkKey, LinkTiming> timings = new TreeMap<>();
    private final Map<LinkKey, List<Long>> failures = new TreeMap<>();
    private final Set<LinkKey> dirty = new LinkedHashSet<>();
    private final List<List<FactorRow>> rows = new ArrayList<>();
    private long nextTick;
    private long lastTrueNs;

    /**
     * The factors recorded over time, per link its first pair, first ACCURATE time and failures, and how each link
     * ended.
     */
    public record Result(List<FactorRow> factors, Map<LinkKey, LinkTiming> links, long intervalNs, long endNs,
            Map<LinkKey, LinkEnd> ends) {

        public Result(List<FactorRow> factors, Map<LinkKey, LinkTiming> links, long intervalNs, long endNs) {
            this(factors, links, intervalNs, endNs, Map.of());
        }

        /** Writes {@code factors.csv}: {@value FactorRow#CSV_HEADER}. */
        public void writeFactors(Writer out) throws IOException {
            out.write(FactorRow.CSV_HEADER + "\n");
            for (FactorRow r : factors) {
                out.write(r.toCsv() + "\n");
            }
        }
    }

    /** A link after its last pair: its latest time (a's clock) and the turn its data show (ppb/s, NaN if none). */
    public record LinkEnd(long latestX, double observedTurnPpbPerS, double observedStepPpb, long failures) {
    }

    private Replay(Function<LinkKey, LinkOptions> linkOptions, List<? extends FactorPolicy> policies,
            long intervalNs) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNs);
        }
        this.linkOptions = linkOptions;
        this.intervalNs = intervalNs;
        this.policies = List.copyOf(policies);
        policies.forEach(p -> rows.add(new ArrayList<>()));
    }

    /** Replays a {@code truth-pairs.csv} through tracesync's network core with {@code networkOptions}. */
    public static Result run(BufferedReader truthPairs, String source, LinkOptions linkOptions,
            NetworkOptions networkOptions, long intervalNs) throws IOException {
        return run(truthPairs, source, linkOptions, List.of(new NetworkPolicy(networkOptions)), intervalNs).get(0);
    }

    /** Replays a {@code truth-pairs.csv} once through all {@code policies}: one result each, in their order. */
    public static List<Result> run(BufferedReader truthPairs, String source, LinkOptions linkOptions,
            List<? extends FactorPolicy> policies, long intervalNs) throws IOException {
        return run(truthPairs, source, k -> linkOptions, policies, intervalNs);
    }

    /** Replays a {@code truth-pairs.csv} once through the policy of each of {@code keys}: each key's result. */
    public static <K> Map<K, Result> run(BufferedReader truthPairs, String source,
            Function<LinkKey, LinkOptions> linkOptions, List<K> keys, Function<K, ? extends FactorPolicy> policy,
            long intervalNs) throws IOException {
        List<Result> results = run(truthPairs, source, linkOptions, keys.stream().map(policy).toList(), intervalNs);
        Map<K, Result> byKey = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            byKey.put(keys.get(i), results.get(i));
        }
        return byKey;
    }

    /** The same with options per link, e.g. each link's known minimum delays (Ashton 1995 §4.2). */
    public static List<Result> run(BufferedReader truthPairs, String source,
            Function<LinkKey, LinkOptions> linkOptions, List<? extends FactorPolicy> policies, long intervalNs)
            throws IOException {
        Replay r = new Replay(linkOptions, policies, intervalNs);
        long n = TruthPair.read(truthPairs, source, r::accept);
        if (n > 0) {
            r.drainAt(r.lastTrueNs);
        }
        Map<LinkKey, LinkTiming> timings = new TreeMap<>();
        r.timings.forEach((k, t) -> timings.put(k, new LinkTiming(t.firstPairTrueNs(), t.firstAccurateTrueNs(),
                r.failures.getOrDefault(k, List.of()))));
        Map<LinkKey, LinkEnd> ends = new TreeMap<>();
        r.links.forEach((k, l) -> ends.put(k, new LinkEnd(l.latestX(), l.observedTurnPpbPerS(), l.observedStepPpb(),
                l.failures())));
        return r.rows.stream().map(f -> new Result(List.copyOf(f), timings, intervalNs, r.lastTrueNs, ends))
                .toList();
    }

    private void accept(TruthPair p) {
        long t = p.trueRecvNs();
        if (links.isEmpty()) {
            nextTick = t + intervalNs;
        }
        if (t < lastTrueNs) {
            throw new IllegalArgumentException("pairs not in true receive order at true time " + t);
        }
        if (t >= nextTick) {
            drainAt(nextTick); // nothing changes between the ticks this pair skips
            nextTick += ((t - nextTick) / intervalNs + 1) * intervalNs;
        }
        lastTrueNs = t;
        LinkKey key = p.pair().link();
        ConvexHullLink link = links.computeIfAbsent(key, k -> new ConvexHullLink(linkOptions.apply(k)));
        if (p.pair().applyTo(link) == PairEffect.FAILED) {
            failures.computeIfAbsent(key, k -> new ArrayList<>()).add(t);
        }
        policies.forEach(f -> f.accept(p.pair(), link));
        dirty.add(key);
        LinkTiming timing = timings.computeIfAbsent(key, k -> new LinkTiming(t, OptionalLong.empty(), List.of()));
        if (timing.firstAccurateTrueNs().isEmpty() && link.quality() == LinkQuality.ACCURATE) {
            timings.put(key, new LinkTiming(timing.firstPairTrueNs(), OptionalLong.of(t), List.of()));
        }
    }

    private void drainAt(long trueNs) {
        Map<LinkKey, ConvexHullLink> view = Collections.unmodifiableMap(links);
        Set<LinkKey> changed = Collections.unmodifiableSet(dirty);
        for (int i = 0; i < policies.size(); i++) {
            rows.get(i).addAll(policies.get(i).drainAt(trueNs, view, changed));
        }
        dirty.clear();
    }
}
