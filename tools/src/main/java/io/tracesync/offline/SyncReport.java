package io.tracesync.offline;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.ExactLine;
import io.tracesync.core.link.LinkBounds;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NetworkSync;
import io.tracesync.core.network.TreeEdge;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import io.tracesync.streams.config.Durations;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The result of an offline synchronization: per link its corridor, estimate and bounds; per component of the
 * network core's minimum spanning forest its reference node and tree links; per node its factors to its
 * component's reference clock. Decimals are strings with 40 significant digits, computed without doubles.
 */
final class SyncReport {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private final Map<LinkKey, ConvexHullLink> links;
    private final List<Long> at;
    /** Per link its bounds at each {@code at} time, from the pairs around it; empty without {@code at}. */
    private final Map<LinkKey, List<LinkBounds>> boundsAt;
    private final LinkWeight weight;
    private final List<AnchoredFactor> nodes;
    private final List<TreeEdge> tree;
    private final List<LinkKey> excluded;
    private final List<Component> components;
    private final Map<String, List<AnchoredFactor>> members = new HashMap<>();
    private final Map<String, List<TreeEdge>> treeOf = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /**
     * Per node its factor under the datasheet alone ({@link LinkEstimate#datasheet}, the links' largest drift), from
     * the links' final state; empty without a largest drift or with {@code at} times.
     */
    private final Map<String, AnchoredFactor> datasheet = new HashMap<>();

    /** A component of the spanning forest, named by its reference node. */
    record Component(String reference, int nodes) {
    }

    private SyncReport(Map<LinkKey, ConvexHullLink> links, List<Long> at, Map<LinkKey, List<LinkBounds>> boundsAt,
            LinkWeight weight, NetworkSync.Evaluation evaluation, List<TreeEdge> tree) {
        this.links = links;
        this.at = at;
        this.boundsAt = boundsAt;
        this.weight = weight;
        this.nodes = evaluation.factors();
        this.excluded = evaluation.excluded();
        this.tree = tree;
        Map<String, String> componentOf = new HashMap<>();
        for (AnchoredFactor f : nodes) {
            members.computeIfAbsent(f.reference(), k -> new ArrayList<>()).add(f);
            componentOf.put(f.node(), f.reference());
        }
        tree.forEach(e -> treeOf.computeIfAbsent(componentOf.get(e.a()), k -> new ArrayList<>()).add(e));
        List<Component> cs = new ArrayList<>();
        members.forEach((ref, ns) -> cs.add(new Component(ref, ns.size())));
        cs.sort(Comparator.comparingInt(Component::nodes).reversed().thenComparing(Component::reference));
        this.components = List.copyOf(cs);
    }

    /**
     * Runs the network core once over the final state of every link: the nodes are those of the links, every
     * one of which therefore has a link. The factors are evaluated at each component's latest time.
     */
    static SyncReport build(Map<LinkKey, ConvexHullLink> links, NetworkOptions options) {
        return build(links, finals(links), Map.of(), options, List.of());
    }

    /** Every link's estimate in its final state. */
    private static Map<LinkKey, LinkEstimate> finals(Map<LinkKey, ConvexHullLink> links) {
        Map<LinkKey, LinkEstimate> estimates = new TreeMap<>();
        links.forEach((key, link) -> estimates.put(key, LinkEstimate.of(key, link)));
        return estimates;
    }

    /**
     * Runs the network core once over the given estimates of the links, evaluated at the latest {@code at} time on
     * each component's reference clock (at each component's latest time without one); the links' table shows
     * their final state, with {@code boundsAt} at the {@code at} times.
     */
    static SyncReport build(Map<LinkKey, ConvexHullLink> links, Map<LinkKey, LinkEstimate> estimates,
            Map<LinkKey, List<LinkBounds>> boundsAt, NetworkOptions options, List<Long> at) {
        TreeSet<String> ids = new TreeSet<>();
        links.keySet().forEach(k -> {
            ids.add(k.a());
            ids.add(k.b());
        });
        String pinned = options.pinnedReference();
        if (pinned != null && !ids.isEmpty() && !ids.contains(pinned)) {
            throw new IllegalArgumentException("reference node " + pinned + " does not occur in the input");
        }
        NetworkSync net = new NetworkSync(options);
        ids.forEach(net::addNode);
        estimates.values().forEach(net::update);
        net.drain();
        SyncReport r = new SyncReport(links, at, boundsAt, options.weight(),
                net.evaluate(at.isEmpty() ? null : Collections.max(at)), net.tree());
        if (at.isEmpty() && links.values().stream().anyMatch(l -> l.datasheet() != null)) {
            NetworkSync sheet = new NetworkSync(options.withMethod(NetworkMethod.ALL_LINKS));
            ids.forEach(sheet::addNode);
            links.forEach((k, l) -> sheet.update(LinkEstimate.datasheet(k, l)));
            sheet.drain();
            sheet.evaluate(null).factors().forEach(f -> r.datasheet.put(f.node(), f));
        }
        for (LinkKey k : r.excluded) {
            r.warnings.add("warning: link " + k + " contradicts the other paths between its nodes (a negative "
                    + "cycle): left out");
        }
        for (AnchoredFactor f : r.nodes) {
            if (r.members.get(f.reference()).size() == 1) {
                r.warnings.add("warning: node " + f.node() + " has no ACCURATE link: it is its own component");
            } else if (!f.factor().bounded()) {
                r.warnings.add("warning: the bound of node " + f.node() + " to its reference " + f.reference()
                        + " is not finite yet");
            }
        }
        return r;
    }

    /**
     * The report at the {@code at} times: each link's bounds at each of them on a's clock, and the factors at the
     * latest on each reference's clock, from the links' estimates at each node's time of it — placed by a first
     * evaluation over the links' final state.
     */
    static SyncReport at(CanonicalPairs read, Map<LinkKey, ConvexHullLink> links, LinkOptions linkOptions,
            NetworkOptions options, List<Long> at, boolean live) {
        LinksAround around = new LinksAround(read, linkOptions);
        long latest = Collections.max(at);
        Map<String, Long> localOfLatest = new HashMap<>();
        SyncReport.build(links, finals(links), Map.of(), options, List.of(latest)).factors()
                .forEach(f -> localOfLatest.put(f.node(), f.factor().anchorNs()));
        Map<LinkKey, LinkEstimate> estimates = new TreeMap<>();
        Map<LinkKey, List<LinkBounds>> bounds = new TreeMap<>();
        links.keySet().forEach(key -> {
            estimates.put(key, around.at(key, localOfLatest.get(key.a()), live));
            for (long t : at) {
                LinkEstimate e = around.at(key, t, live);
                if (e.aToB() != null) {
                    bounds.computeIfAbsent(key, k -> new ArrayList<>()).add(new LinkBounds(t, nanos(e.upAtPs(t)),
                            nanos(e.downAtPs(t))));
                }
            }
        });
        return SyncReport.build(links, estimates, bounds, options, at);
    }

    /** Every node's factor, evaluated as {@link #build} says. */
    List<AnchoredFactor> factors() {
        return nodes;
    }

    List<String> warnings() {
        return warnings;
    }

    /** The reference of the largest component (of equal ones, the smallest name), or null without nodes. */
    String reference() {
        return components.isEmpty() ? null : components.get(0).reference();
    }

    String toJson() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode ls = root.putArray("links");
        links.forEach((key, link) -> {
            ObjectNode o = ls.addObject();
            o.put("a", key.a());
            o.put("b", key.b());
            o.put("pairs", Long.toString(link.pairs()));
            o.put("quality", link.quality().name());
            o.put("hull_points", link.hullPoints());
            o.put("window_ns", Long.toString(link.windowNs()));
            o.put("straight_fit", link.fitted());
            double turn = link.observedTurnPpbPerS();
            o.put("observed_curvature_ppb_per_s", Double.isNaN(turn) ? null : turn);
            double step = link.observedStepPpb();
            o.put("observed_step_ppb", Double.isNaN(step) ? null : step);
            putLine(o, "min", link.minLine());
            putLine(o, "max", link.maxLine());
            ClockMap c = link.estimate();
            o.put("slope", c == null ? null : c.slope().toDecimalString());
            o.put("intercept", c == null ? null : c.offset().toDecimalString());
            Rational acc = link.slopeAccuracy();
            o.put("slope_accuracy", acc == null ? null : acc.toDecimalString());
            ArrayNode bs = o.putArray("bounds");
            for (LinkBounds b : bounds(key, link)) {
                ObjectNode bo = bs.addObject();
                bo.put("t", Long.toString(b.t()));
                bo.put("up_ns", b.upNs());
                bo.put("down_ns", b.downNs());
            }
            o.put("stale_pairs", Long.toString(link.stale()));
            o.put("failures", Long.toString(link.failures()));
        });
        root.put("reference", reference());
        ArrayNode cs = root.putArray("components");
        for (Component c : components) {
            cs.addObject().put("reference", c.reference()).put("nodes", c.nodes());
        }
        ArrayNode ns = root.putArray("nodes");
        for (AnchoredFactor f : nodes) {
            ObjectNode o = ns.addObject();
            Factor x = f.factor();
            ClockMap m = x.toReference();
            o.put("node", f.node());
            o.put("component", f.reference());
            o.put("method", f.method().label());
            o.put("evaluated_at_ns", Long.toString(f.evaluatedAtNs()));
            o.put("anchor_ns", Long.toString(x.anchorNs()));
            o.put("slope", m.slope().toDecimalString());
            o.put("offset", m.offset().toDecimalString());
            o.put("bound_ns", x.boundNs());
            o.put("up_ns", nanos(x.upPs()));
            o.put("down_ns", nanos(x.downPs()));
            o.put("growth_up_ns_per_s", x.bounded() ? perSecond(x.growthAbove()) : null);
            o.put("growth_down_ns_per_s", x.bounded() ? perSecond(x.growthBelow()) : null);
            o.put("curvature_ppb_per_s", x.bounded() ? x.curvature() * 1e18 : null);
            o.put("tree_up_ns", nanos(f.treeUpPs()));
            o.put("tree_down_ns", nanos(f.treeDownPs()));
            Conversion sheet = datasheetAt(f);
            if (sheet != null) {
                o.put("datasheet_lower_ns", sheet.lowerNs() == null ? null : Long.toString(sheet.lowerNs()));
                o.put("datasheet_upper_ns", sheet.upperNs() == null ? null : Long.toString(sheet.upperNs()));
            }
        }
        ArrayNode ex = root.putArray("excluded_links");
        excluded.forEach(k -> ex.addObject().put("a", k.a()).put("b", k.b()));
        ArrayNode ts = root.putArray("tree");
        for (TreeEdge e : tree) {
            ObjectNode o = ts.addObject().put("a", e.a()).put("b", e.b());
            if (Double.isInfinite(e.weight())) {
                o.putNull("weight"); // an APPROXIMATE link: +infinity is no JSON number
            } else {
                o.put("weight", e.weight());
            }
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The node's interval under the datasheet alone at its factor's anchor, as reference time; null without one or
     * where the datasheet's component has another reference.
     */
    private Conversion datasheetAt(AnchoredFactor f) {
        AnchoredFactor d = datasheet.get(f.node());
        return d == null || !d.reference().equals(f.reference()) || !d.factor().bounded() ? null
                : Conversion.of(d.factor(), f.factor().anchorNs());
    }

    /** The larger distance from the factor's map at its anchor to an end of the datasheet interval there, ns. */
    private BigDecimal datasheetBound(AnchoredFactor f) {
        Conversion c = datasheetAt(f);
        if (c == null || c.lowerNs() == null || c.upperNs() == null) {
            return null;
        }
        BigDecimal at = f.factor().toReference().apply(f.factor().anchorNs()).toBigDecimal();
        return BigDecimal.valueOf(c.upperNs()).subtract(at).max(at.subtract(BigDecimal.valueOf(c.lowerNs())))
                .setScale(3, RoundingMode.UP);
    }

    /** The link's bounds at its latest time, or at each {@code at} time from its pairs around it. */
    private List<LinkBounds> bounds(LinkKey key, ConvexHullLink link) {
        if (!at.isEmpty()) {
            return boundsAt.getOrDefault(key, List.of());
        }
        return link.estimate() == null ? List.of() : List.of(link.boundsAtLatest());
    }

    private static void putLine(ObjectNode o, String which, ExactLine line) {
        o.put("slope_" + which, line == null ? null : line.slope().toDecimalString());
        o.put("intercept_" + which, line == null ? null : line.intercept().toDecimalString());
    }

    /** The link's quality, and how often it failed when it has. */
    private static String quality(ConvexHullLink link) {
        return link.failures() == 0 ? link.quality().name()
                : link.quality() + " (" + link.failures() + " failure" + (link.failures() == 1 ? "" : "s") + ")";
    }

    /**
     * The human table: per link its drift and bounds, per component its nodes' drift, offset and bound at the time
     * the factors are evaluated at, in units that fit (the JSON has every digit).
     */
    String toText(long pairCount) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%d pair%s, %d link%s%n%n", pairCount, pairCount == 1 ? "" : "s", links.size(),
                links.size() == 1 ? "" : "s"));
        sb.append(String.format("links (bounds at %s, on a's clock):%n",
                at.isEmpty() ? "each link's latest pair" : "each --at time"));
        TextTable lt = new TextTable("link (a~b)", "quality", ">pairs", ">hull", ">drift b/a (ppm)", ">bound",
                ">at (ns)");
        links.forEach((key, link) -> {
            ClockMap c = link.estimate();
            String drift = c == null ? "-" : ppm(c.slope());
            Rational acc = link.slopeAccuracy();
            if (acc != null) {
                drift += " ± " + acc.divide(Rational.of(2)).multiply(Rational.of(1_000_000))
                        .toBigDecimal(MathContext.DECIMAL64).setScale(3, RoundingMode.UP).toPlainString();
            }
            List<LinkBounds> bs = bounds(key, link);
            if (bs.isEmpty()) {
                lt.row(key, quality(link), link.pairs(), link.hullPoints(), drift, "-", "-");
            }
            for (LinkBounds b : bs) {
                lt.row(key, quality(link), link.pairs(), link.hullPoints(), drift, bound(b.upNs(), b.downNs()),
                        b.t());
            }
        });
        lt.appendTo(sb);
        sb.append(String.format("%ndrift b/a: slope - 1 of b's clock against a's ± half its range; bound: "
                + "Poirier's, around the estimate%n"));
        sb.append(String.format("quality: ACCURATE  pairs both ways, both slope bounds known: the link is bounded%n"
                + "         APPROXIMATE  pairs both ways, a slope bound still open%n"
                + "         INCOMPLETE  pairs one way only    ABSENT  no pair%n"
                + "         FAIL  pairs contradicting each other (counted in failures), until new pairs agree%n"));
        for (Component c : components) {
            List<AnchoredFactor> fs = members.get(c.reference());
            sb.append(String.format("%ncomponent %s (%d node%s), reference clock %s, factors %s;%n"
                    + "offsets and bounds at %d on %s's clock (%s):%n", c.reference(), c.nodes(),
                    c.nodes() == 1 ? "" : "s", c.reference(),
                    fs.get(0).method() == NetworkMethod.TREE ? "along the spanning tree" : "from every link",
                    fs.get(0).evaluatedAtNs(), c.reference(),
                    at.isEmpty() ? "the end of the pairs" : "the latest --at"));
            String offset = "%,." + offsetDecimals(fs) + "f";
            List<String> columns = new ArrayList<>(List.of("node", ">drift (ppm)", ">offset (ms)", ">bound",
                    ">tree bound", ">grows"));
            if (!datasheet.isEmpty()) {
                columns.add(">datasheet bound");
            }
            TextTable nt = new TextTable(columns.toArray(String[]::new));
            for (AnchoredFactor f : fs) {
                Factor x = f.factor();
                ClockMap m = x.toReference();
                BigDecimal offsetNs = m.apply(x.anchorNs()).subtract(DoubleDouble.of(x.anchorNs())).toBigDecimal();
                List<Object> cells = new ArrayList<>(List.of(f.node(), ppm(m.slope()),
                        String.format(Locale.ROOT, offset, offsetNs.movePointLeft(6)), ns(x.boundNs()),
                        ns(nanos(Math.max(f.treeUpPs(), f.treeDownPs()))),
                        x.bounded() ? Durations.format(Math.max(x.growthAbove(), x.growthBelow()) * 1e9) + "/s"
                                : "-"));
                if (!datasheet.isEmpty()) {
                    cells.add(ns(datasheetBound(f)));
                }
                nt.row(cells.toArray());
            }
            nt.appendTo(sb);
            List<TreeEdge> edges = treeOf.getOrDefault(c.reference(), List.of());
            if (!edges.isEmpty()) {
                TextTable tt = new TextTable("tree link (a~b)", ">weight (" + weight.label() + ")");
                edges.forEach(e -> tt.row(e.a() + "~" + e.b(), weightText(e.weight())));
                sb.append(System.lineSeparator());
                tt.appendTo(sb);
            }
        }
        if (!components.isEmpty()) {
            sb.append(String.format("%ndrift: slope - 1 of t_ref = slope * t + offset (> 0: the node's clock is slower "
                    + "than the reference's)%noffset: the reference's time minus the node's; bound: "
                    + "guaranteed then, growing by 'grows' per second%n  of the node's clock away from then%s; tree "
                    + "bound: the same along the tree path%n", curvatureNote()));
        }
        return sb.toString();
    }

    /** A link's bounds above and below its estimate, one figure when they read the same. */
    private static String bound(BigDecimal up, BigDecimal down) {
        String u = ns(up);
        String d = ns(down);
        return u.equals(d) ? "±" + u : "+" + u + " / -" + d;
    }

    /** Nanoseconds in the unit that fits, {@code inf} when unbounded (null). */
    private static String ns(BigDecimal v) {
        return v == null ? "inf" : Durations.format(v.doubleValue());
    }

    /**
     * Decimals of the component's offsets in ms: down to a tenth of its narrowest bound, so the offset is as precise
     * as it is known; to the µs without one.
     */
    private static int offsetDecimals(List<AnchoredFactor> fs) {
        double narrowest = fs.stream().map(f -> f.factor().boundNs()).filter(b -> b != null && b.signum() > 0)
                .mapToDouble(BigDecimal::doubleValue).min().orElse(10_000);
        return (int) Math.max(0, Math.min(6, Math.ceil(-Math.log10(narrowest / 1e7))));
    }

    /** A tree link's weight: a bound width (ps) as a duration, a slope accuracy in ppm. */
    private String weightText(double w) {
        if (Double.isInfinite(w)) {
            return "inf";
        }
        return weight == LinkWeight.BOUND_WIDTH ? Durations.format(w / 1000)
                : new BigDecimal(w * 1e6).round(new MathContext(4)).toPlainString() + " ppm";
    }

    /** A growth rate of a bound in ns per second of the node's clock, rounded up to 3 significant digits. */
    private static BigDecimal perSecond(double rate) {
        return new BigDecimal(rate * 1e9).round(new MathContext(3, RoundingMode.CEILING));
    }

    /** Picoseconds as nanoseconds with 3 decimals, or null when unbounded. */
    private static BigDecimal nanos(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? null : BigDecimal.valueOf(ps, 3);
    }

    /** Slope - 1 in ppm, signed, to the 0.001 ppm. */
    /** The clock model's quadratic growth, where the factors have one. */
    private String curvatureNote() {
        double rho = nodes.stream().mapToDouble(f -> f.factor().curvature()).max().orElse(0);
        return rho == 0 ? "" : String.format(Locale.ROOT, ", plus %.3g ppb/s × d²/2 (the clock model)", rho * 1e18);
    }

    private static String ppm(DoubleDouble slope) {
        return String.format(Locale.ROOT, "%+.3f", slope.subtract(DoubleDouble.ONE).toBigDecimal().movePointRight(6));
    }
}
