package io.tracesync.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.ExactLine;
import io.tracesync.core.link.LinkBounds;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.Rational;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The result of an offline synchronization: per link its corridor, estimate and bounds; per node its factors to
 * the reference clock. Decimals are strings with 40 significant digits, computed without doubles.
 */
final class SyncReport {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private final Map<LinkKey, ConvexHullLink> links;
    private final List<Long> at;
    private final String reference;
    private final List<NodeFactor> nodes = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    record NodeFactor(String node, ClockMap map, BigDecimal boundNs) {
    }

    private SyncReport(Map<LinkKey, ConvexHullLink> links, String reference, List<Long> at) {
        this.links = links;
        this.reference = reference;
        this.at = at;
    }

    static SyncReport build(Map<LinkKey, ConvexHullLink> links, String reference, List<Long> at) {
        TreeSet<String> ids = new TreeSet<>();
        links.keySet().forEach(k -> {
            ids.add(k.a());
            ids.add(k.b());
        });
        if (reference != null && !ids.isEmpty() && !ids.contains(reference)) {
            throw new IllegalArgumentException("reference node " + reference + " does not occur in the input");
        }
        String ref = reference != null ? reference : ids.isEmpty() ? null : ids.first();
        SyncReport r = new SyncReport(links, ref, at);
        if (ref != null) {
            r.nodes.add(new NodeFactor(ref, ClockMap.IDENTITY, BigDecimal.ZERO.setScale(3)));
        }
        if (ids.size() == 2) {
            r.addTwoNodeFactor(links.entrySet().iterator().next(), ref);
        } else if (ids.size() > 2) {
            r.warnings.add("note: factors for more than two nodes need the network core (issue #3); "
                    + "only the per-link results are reported");
        }
        return r;
    }

    private void addTwoNodeFactor(Map.Entry<LinkKey, ConvexHullLink> e, String ref) {
        LinkKey key = e.getKey();
        ConvexHullLink link = e.getValue();
        ClockMap aToB = link.estimate();
        String other = key.a().equals(ref) ? key.b() : key.a();
        if (aToB == null) {
            warnings.add("warning: link " + key + " is " + link.quality() + ": no factors for node " + other);
            return;
        }
        LinkBounds b = link.boundsAtLatest();
        BigDecimal bound = b.widest();
        if (key.a().equals(ref)) {
            // other = b: t_a = inverse(t_b); the bound in a's units is the b-units bound divided by the slope.
            ClockMap bToA = aToB.inverse();
            nodes.add(new NodeFactor(other, bToA, bound == null ? null
                    : bound.divide(aToB.slope().toBigDecimal(), 3, RoundingMode.CEILING)));
        } else {
            nodes.add(new NodeFactor(other, aToB, bound));
        }
        if (bound == null) {
            warnings.add("warning: link " + key + " is " + link.quality() + ": the bound of " + other
                    + " is not finite yet");
        }
    }

    List<String> warnings() {
        return warnings;
    }

    String toJson() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode ls = root.putArray("links");
        links.forEach((key, link) -> {
            ObjectNode o = ls.addObject();
            o.put("a", key.a());
            o.put("b", key.b());
            o.put("pairs", link.pairs());
            o.put("quality", link.quality().name());
            o.put("hull_points", link.hullPoints());
            putLine(o, "min", link.minLine());
            putLine(o, "max", link.maxLine());
            ClockMap c = link.estimate();
            o.put("slope", c == null ? null : c.slope().toDecimalString());
            o.put("intercept", c == null ? null : c.offset().toDecimalString());
            Rational acc = link.slopeAccuracy();
            o.put("slope_accuracy", acc == null ? null : acc.toDecimalString());
            ArrayNode bs = o.putArray("bounds");
            for (LinkBounds b : bounds(link)) {
                ObjectNode bo = bs.addObject();
                bo.put("t", b.t());
                bo.put("up_ns", b.upNs());
                bo.put("down_ns", b.downNs());
            }
            o.put("stale_pairs", link.stale());
            o.put("failures", link.failures());
        });
        root.put("reference", reference);
        ArrayNode ns = root.putArray("nodes");
        for (NodeFactor f : nodes) {
            ObjectNode o = ns.addObject();
            o.put("node", f.node());
            o.put("slope", f.map().slope().toDecimalString());
            o.put("offset", f.map().offset().toDecimalString());
            o.put("bound_ns", f.boundNs());
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<LinkBounds> bounds(ConvexHullLink link) {
        List<LinkBounds> out = new ArrayList<>();
        if (link.estimate() == null) {
            return out;
        }
        if (at.isEmpty()) {
            out.add(link.boundsAtLatest());
        } else {
            at.forEach(t -> out.add(link.boundsAt(t)));
        }
        return out;
    }

    private static void putLine(ObjectNode o, String which, ExactLine line) {
        o.put("slope_" + which, line == null ? null : line.slope().toDecimalString());
        o.put("intercept_" + which, line == null ? null : line.intercept().toDecimalString());
    }

    String toText(long pairCount) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%d pairs, %d links%n%n", pairCount, links.size()));
        sb.append(String.format("%-25s %-12s %8s %5s %-26s %-14s %s%n", "link (a~b)", "quality", "pairs", "hull",
                "drift b/a (ppm)", "bound (ns)", "at a's time"));
        links.forEach((key, link) -> {
            ClockMap c = link.estimate();
            String drift = c == null ? "-" : ppm(c.slope());
            Rational acc = link.slopeAccuracy();
            if (acc != null) {
                drift += " ± " + acc.divide(Rational.of(2)).multiply(Rational.of(1_000_000))
                        .toBigDecimal(new MathContext(3)).toPlainString();
            }
            List<LinkBounds> bs = bounds(link);
            if (bs.isEmpty()) {
                sb.append(String.format("%-25s %-12s %8d %5d %-26s %-14s %s%n", key, link.quality(), link.pairs(),
                        link.hullPoints(), drift, "-", "-"));
            }
            for (LinkBounds b : bs) {
                sb.append(String.format("%-25s %-12s %8d %5d %-26s %-14s %d%n", key, link.quality(), link.pairs(),
                        link.hullPoints(), drift, "+" + str(b.upNs()) + "/-" + str(b.downNs()), b.t()));
            }
        });
        if (reference != null) {
            sb.append(String.format("%nreference clock: %s%n", reference));
            sb.append(String.format("%-20s %-42s %-42s %s%n", "node", "slope", "offset (ns)", "bound (ns)"));
            for (NodeFactor f : nodes) {
                sb.append(String.format("%-20s %-42s %-42s %s%n", f.node(), f.map().slope().toDecimalString(),
                        f.map().offset().toDecimalString(), str(f.boundNs())));
            }
        }
        return sb.toString();
    }

    private static String ppm(DoubleDouble slope) {
        return slope.subtract(DoubleDouble.ONE).toBigDecimal().multiply(BigDecimal.valueOf(1_000_000))
                .round(new MathContext(6)).toPlainString();
    }

    private static String str(BigDecimal v) {
        return v == null ? "inf" : v.toPlainString();
    }
}
