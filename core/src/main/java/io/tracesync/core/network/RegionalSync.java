package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The network solved in regions: nodes grouped by a region function (racks, zones), each region's own links in a
 * {@link Region} and the links between regions in a {@link Backbone}, so that the regions' work can be spread over
 * tasks and only the backbone's is done in one place. The two exchange factors: each region gives the backbone its
 * ends' factors, which tie them there to their references' clocks, and the backbone gives each region its ends'
 * factors, which tie them there to the network's reference. Every tie is a path over real links valid under the
 * clock model, so every interval is one too [Patt-Shamir & Rajsbaum 1994]: every answer is valid, whatever the
 * exchanges so far. Each exchange carries paths one region border further; a path that crosses a region between
 * two of its ends goes through the reference's clock in the backbone, and links between regions the backbone does
 * not hold are left out. With one region the answer is {@link NetworkSync#evaluate}'s.
 */
public final class RegionalSync {

    private final NetworkOptions options;
    private final Function<String, String> regionOf;
    private final Map<String, Region> regions = new TreeMap<>();
    private final Backbone backbone;
    /** The backbone's last factors of the ends, by region and name. */
    private final Map<String, Map<String, NodeFactor>> fromBackbone = new HashMap<>();

    /** Links between regions held by the backbone: all ({@code perPair} 0) or per pair the lightest few. */
    public RegionalSync(NetworkOptions options, Function<String, String> regionOf, int perPair) {
        this.options = Objects.requireNonNull(options, "options");
        this.regionOf = Objects.requireNonNull(regionOf, "regionOf");
        this.backbone = new Backbone(options, perPair);
    }

    /** The region of a node: the function's answer, checked. */
    public String region(String node) {
        if (Backbone.isHub(node)) {
            throw new IllegalArgumentException("a node name may not start with U+FFFF: " + node);
        }
        return Objects.requireNonNull(regionOf.apply(node), () -> "no region for " + node);
    }

    /** Applies a link's latest estimate, to its region or, between regions, to the backbone. */
    public void update(LinkEstimate link) {
        update(link, null);
    }

    /** {@link #update(LinkEstimate)}, its cost counted to its region's or the backbone's work if not null. */
    public void update(LinkEstimate link, Work work) {
        long start = work == null ? 0 : System.nanoTime();
        String ra = region(link.key().a());
        String rb = region(link.key().b());
        if (ra.equals(rb)) {
            regionNamed(ra).update(link);
            if (work != null) {
                work.regionNs.merge(ra, System.nanoTime() - start, Long::sum);
            }
            return;
        }
        regionNamed(ra).addNode(link.key().a());
        regionNamed(rb).addNode(link.key().b());
        backbone.update(link, ra, rb);
        if (work != null) {
            work.backboneNs += System.nanoTime() - start;
        }
    }

    /** The region of that name, made on first use; a pinned reference is pinned in its own region only. */
    private Region regionNamed(String name) {
        return regions.computeIfAbsent(name, r -> {
            String pinned = options.pinnedReference();
            return new Region(pinned != null && region(pinned).equals(r) ? options
                    : options.withPinnedReference(null));
        });
    }

    /** Removes a link. */
    public void remove(LinkKey key) {
        String ra = region(key.a());
        String rb = region(key.b());
        if (!ra.equals(rb)) {
            backbone.remove(key, ra, rb);
        } else if (regions.containsKey(ra)) {
            regions.get(ra).remove(key);
        }
    }

    /** The links between regions the backbone holds. */
    Set<LinkKey> held() {
        return backbone.held();
    }

    /**
     * One exchange: each region answers with its ends tied by the backbone's last factors, then the backbone takes
     * the ends' new factors as ties and answers for them. Returns the regions' answers, every node's factor to its
     * reference by name; the parts' work in {@code work} if not null. Repeated, the exchange carries every path
     * across as many region borders as it has been repeated.
     */
    public Map<String, NodeFactor> evaluate(Work work) {
        Map<String, NodeFactor> out = new TreeMap<>();
        for (Map.Entry<String, Region> r : regions.entrySet()) {
            long start = System.nanoTime();
            r.getValue().answer(fromBackbone.getOrDefault(r.getKey(), Map.of()))
                    .forEach((node, f) -> out.put(node, f.nodeFactor()));
            if (work != null) {
                work.regionNs.merge(r.getKey(), System.nanoTime() - start, Long::sum);
            }
        }
        long start = System.nanoTime();
        for (String u : List.copyOf(backbone.ends())) {
            backbone.tie(u, out.get(u));
        }
        fromBackbone.clear();
        backbone.evaluate().forEach((name, f) -> fromBackbone.computeIfAbsent(region(name), r -> new HashMap<>())
                .put(name, f.nodeFactor()));
        if (work != null) {
            work.backboneNs += System.nanoTime() - start;
            work.backboneNodes = backbone.nodes();
            work.backboneLinks = backbone.links();
        }
        return out;
    }

    /**
     * What updates and an exchange cost, part by part: each region's (its links' updates, its evaluation) and the
     * backbone's (its links' updates, the ties, its evaluation).
     */
    public static final class Work {
        public final Map<String, Long> regionNs = new TreeMap<>();
        public long backboneNs;
        public int backboneNodes;
        public int backboneLinks;

        /** The busiest of {@code tasks} tasks with the regions dealt to them in turn, in ns. */
        public long busiestTaskNs(int tasks) {
            long[] load = new long[tasks];
            List<Long> each = new ArrayList<>(regionNs.values());
            for (int i = 0; i < each.size(); i++) {
                load[i % tasks] += each.get(i);
            }
            long max = 0;
            for (long l : load) {
                max = Math.max(max, l);
            }
            return max;
        }
    }
}
