package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A random network of exactly linear clocks, C_v(t) = θ_v + (1 + ρ_v)·t with ρ_v a whole number of 10^-12, and
 * the messages of its links, timestamped by flooring the true clock readings: with delays of at least 2 ns,
 * every a→b point lies on or above the true relation and every b→a point below it, so every guarantee must hold
 * exactly. The truth is computed in BigDecimal.
 */
final class LinearNetwork {

    static final long EPOCH = 1_700_000_000_000_000_000L;
    private static final MathContext MC = new MathContext(80);
    private static final BigDecimal ROUNDING = new BigDecimal("1e-30");

    final List<String> names = new ArrayList<>();
    private final Map<String, BigDecimal> rate = new TreeMap<>();
    private final Map<String, BigDecimal> offset = new TreeMap<>();
    final Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
    /** Per link its messages not yet given to the link, each {1, send_a, recv_b} or {0, recv_a, send_b}. */
    final Map<LinkKey, List<long[]>> pending = new TreeMap<>();

    /**
     * {@code nodes} clocks with drifts up to ±{@code ppm} and offsets up to ±1 s; {@code links} links (random
     * pairs, the first n − 1 forming a random tree when {@code connected}); per link {@code messages} messages
     * over {@code spanNs} of true time from EPOCH, each way at random, delays 2 ns + exponential of mean
     * {@code meanDelayNs}.
     */
    LinearNetwork(Random r, int nodes, int links, boolean connected, double ppm, int messages, long spanNs,
            double meanDelayNs) {
        this(r, nodes, links, connected, ppm, messages, spanNs, meanDelayNs, LinkOptions.DEFAULT);
    }

    /** The same with links of the given options (a clock model's ρ′ holds for linear clocks too). */
    LinearNetwork(Random r, int nodes, int links, boolean connected, double ppm, int messages, long spanNs,
            double meanDelayNs, LinkOptions options) {
        for (int i = 0; i < nodes; i++) {
            String name = String.format("n%02d", i);
            names.add(name);
            rate.put(name, BigDecimal.ONE.add(BigDecimal.valueOf((long) ((r.nextDouble() * 2 - 1) * ppm * 1e6), 12)));
            offset.put(name, BigDecimal.valueOf((long) ((r.nextDouble() * 2 - 1) * 1e9)));
        }
        for (int i = 0; i < links && nodes > 1; i++) {
            int a;
            int b;
            if (connected && i < nodes - 1) {
                a = i + 1;
                b = r.nextInt(i + 1);
            } else {
                a = r.nextInt(nodes);
                b = r.nextInt(nodes - 1);
                b = b >= a ? b + 1 : b;
            }
            LinkKey key = LinkKey.between(names.get(a), names.get(b));
            if (this.links.containsKey(key)) {
                continue;
            }
            List<long[]> list = new ArrayList<>();
            for (int k = 0; k < messages; k++) {
                long t = EPOCH + (long) (r.nextDouble() * spanNs);
                long delay = 2 + (long) (-meanDelayNs * Math.log(1 - r.nextDouble()));
                list.add(r.nextBoolean() ? new long[] {1, read(key.a(), t), read(key.b(), t + delay)}
                        : new long[] {0, read(key.a(), t + delay), read(key.b(), t)});
            }
            list.sort((p, q) -> Long.compare(p[1], q[1]));
            this.links.put(key, new ConvexHullLink(options));
            this.pending.put(key, list);
        }
    }

    /** Gives a link its next {@code count} messages (fewer if fewer are left); returns how many. */
    int feed(LinkKey key, int count) {
        List<long[]> list = pending.get(key);
        ConvexHullLink link = links.get(key);
        int k = 0;
        for (; k < count && !list.isEmpty(); k++) {
            long[] p = list.remove(0);
            if (p[0] == 1) {
                link.addAtoB(p[1], p[2]);
            } else {
                link.addBtoA(p[2], p[1]);
            }
        }
        return k;
    }

    /** Gives every link all its messages. */
    void feedAll() {
        pending.keySet().forEach(k -> feed(k, Integer.MAX_VALUE));
    }

    /** The timestamp node records at true time t: its clock, floored. */
    long read(String node, long t) {
        return clock(node, BigDecimal.valueOf(t)).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    private BigDecimal clock(String node, BigDecimal t) {
        return offset.get(node).add(rate.get(node).multiply(t));
    }

    /** The true time at which node reads local: exactly. */
    private BigDecimal trueTime(String node, BigDecimal local) {
        return local.subtract(offset.get(node)).divide(rate.get(node), MC);
    }

    /** What the reference's clock reads when node reads {@code local} (R_node(local)). */
    BigDecimal referenceAt(String node, String reference, long local) {
        return clock(reference, trueTime(node, BigDecimal.valueOf(local)));
    }

    /** Every link's current estimate. */
    List<LinkEstimate> estimates() {
        List<LinkEstimate> out = new ArrayList<>();
        links.forEach((k, l) -> out.add(LinkEstimate.of(k, l)));
        return out;
    }

    /**
     * Null if the reference's true time at node-local t lies inside f's bounds at t, else a description of the
     * violation.
     */
    String violation(AnchoredFactor f, long t) {
        if (!f.factor().bounded()) {
            return null;
        }
        BigDecimal truth = referenceAt(f.node(), f.reference(), t);
        BigDecimal estimate = f.factor().toReference().slope().toBigDecimal().multiply(BigDecimal.valueOf(t))
                .add(f.factor().toReference().offset().toBigDecimal());
        BigDecimal errorPs = estimate.subtract(truth).movePointRight(3);
        // the truth's division is rounded to 80 digits: 1e-30 ps is far above that and far below any bound's ps
        if (errorPs.compareTo(BigDecimal.valueOf(f.factor().downAtPs(t)).add(ROUNDING)) > 0
                || errorPs.negate().compareTo(BigDecimal.valueOf(f.factor().upAtPs(t)).add(ROUNDING)) > 0) {
            return f + " at " + t + ": error " + errorPs.round(new MathContext(12)) + " ps";
        }
        return null;
    }
}
