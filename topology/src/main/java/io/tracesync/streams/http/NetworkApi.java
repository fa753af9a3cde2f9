package io.tracesync.streams.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.iq.NetworkQueries;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answers of the network endpoints from this instance's stores (the caller routes a request here only where
 * the active network task runs): factors, links, the tree, and conversions of a local time to reference time —
 * with the true time and error beside them where the truth is known ({@link KnownTruth}).
 */
final class NetworkApi {

    /** Timestamps are 0 to 2^62 ns exclusive, as the application's check step accepts them. */
    private static final long MAX_TS = 1L << 62;

    /** A bound grown past this many times its value at the anchor is called out in the answer. */
    private static final double GROWN = 2;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final NetworkQueries queries;
    /** The true clocks, or null (where they are not known: every real deployment). */
    private final KnownTruth truth;

    NetworkApi(NetworkQueries queries, KnownTruth truth) {
        this.queries = queries;
        this.truth = truth;
    }

    /** The answer to GET path?query, or null if no network endpoint has that path. */
    Reply answer(List<String> path, Map<String, String> query) {
        if (path.isEmpty()) {
            return null;
        }
        return switch (path.get(0)) {
            case "factors" -> path.size() == 1 ? factors(queries.factors())
                    : path.size() == 2 ? queries.factor(path.get(1)).map(f -> Reply.json(200, factor(f).toString()))
                            .orElseGet(() -> error(404, "no node " + path.get(1))) : null;
            case "links" -> path.size() == 1 ? list("links", queries.links())
                    : path.size() == 3 ? found(queries.link(path.get(1), path.get(2)),
                            "link " + path.get(1) + "~" + path.get(2)) : null;
            case "tree" -> path.size() == 1 ? found(queries.tree(), "spanning forest (no link is ACCURATE yet)")
                    : null;
            case "convert" -> path.size() == 1 ? convert(query) : null;
            default -> null;
        };
    }

    private static Reply list(String name, List<?> records) {
        ObjectNode o = NODES.objectNode();
        o.set(name, AvroJson.of(records));
        return Reply.json(200, o.toString());
    }

    private Reply factors(List<SyncFactor> factors) {
        ArrayNode all = NODES.arrayNode();
        factors.forEach(f -> all.add(factor(f)));
        ObjectNode o = NODES.objectNode();
        o.set("factors", all);
        return Reply.json(200, o.toString());
    }

    /** A factor record as JSON; where the truth is known, with the factor's true error at its anchor. */
    private JsonNode factor(SyncFactor f) {
        JsonNode json = AvroJson.of(f);
        if (truth != null && json instanceof ObjectNode o) {
            Factor factor = PublishedFactor.of(f).factor();
            long anchor = factor.anchorNs();
            truth.referenceAt(f.getNode().toString(), f.getReference().toString(), anchor).ifPresent(trueNs ->
                    o.set("true_error_ns", NODES.numberNode(error(Conversion.of(factor, anchor), trueNs))));
        }
        return json;
    }

    /** The answer's error from the reference's true reading, ns (3 decimals). */
    private static BigDecimal error(Conversion c, long trueNs) {
        return c.referenceNs().subtract(BigDecimal.valueOf(trueNs)).setScale(3, RoundingMode.HALF_EVEN);
    }

    private static Reply found(Optional<?> record, String what) {
        return record.map(r -> Reply.json(200, AvroJson.of(r).toString()))
                .orElseGet(() -> error(404, "no " + what));
    }

    /** GET /convert?node=X&amp;t=NS: local time t of node X on its reference's clock, with the guaranteed interval. */
    private Reply convert(Map<String, String> query) {
        String node = query.get("node");
        String t = query.get("t");
        if (node == null || t == null) {
            return error(400, "give node=NAME and t=LOCAL_NS");
        }
        long localNs;
        try {
            localNs = Long.parseLong(t);
        } catch (NumberFormatException e) {
            return error(400, "t=" + t + " is not a whole number of nanoseconds");
        }
        if (localNs < 0 || localNs >= MAX_TS) {
            return error(400, "t=" + t + " is outside 0 to 2^62 ns, the timestamps the application accepts");
        }
        Optional<SyncFactor> factor = queries.factor(node);
        if (factor.isEmpty()) {
            return error(404, "no factor for node " + node);
        }
        SyncFactor f = factor.get();
        Factor published = PublishedFactor.of(f).factor();
        Conversion c;
        try {
            c = Conversion.of(published, localNs);
        } catch (ArithmeticException e) {
            return error(400, "t=" + t + " converts outside the range of nanosecond timestamps");
        }
        ObjectNode o = NODES.objectNode();
        o.put("node", node);
        o.put("component", f.getComponent().toString());
        o.put("reference", f.getReference().toString());
        o.put("local_ns", localNs);
        o.put("reference_ns", c.referenceNs().setScale(3, RoundingMode.HALF_EVEN).toPlainString());
        o.put("nearest_ns", c.nearestNs());
        o.set("lower_ns", c.lowerNs() == null ? NODES.nullNode() : NODES.numberNode(c.lowerNs()));
        o.set("upper_ns", c.upperNs() == null ? NODES.nullNode() : NODES.numberNode(c.upperNs()));
        o.put("version", f.getVersion());
        o.put("valid_from_ms", f.getValidFromMs());
        distanceFromAnchor(o, published, localNs);
        if (truth != null) {
            truth.referenceAt(node, f.getReference().toString(), localNs).ifPresent(trueNs -> {
                o.put("true_reference_ns", trueNs);
                o.set("true_error_ns", NODES.numberNode(error(c, trueNs)));
                o.put("inside", c.lowerNs() != null && c.lowerNs() <= trueNs && trueNs <= c.upperNs());
            });
        }
        return Reply.json(200, o.toString());
    }

    /**
     * How far t lies from the factor's anchor — the newest time of the data behind the factor, where its bounds are
     * tightest — and how much the bound grew on the way; past {@link #GROWN} times the anchor's, a sentence says so.
     */
    private static void distanceFromAnchor(ObjectNode o, Factor f, long t) {
        long d = t - f.anchorNs();
        o.put("anchor_ns", f.anchorNs());
        o.put("from_anchor_ns", d);
        long atAnchor = Math.max(f.upPs(), f.downPs());
        long atT = Math.max(f.upAtPs(t), f.downAtPs(t));
        if (!f.bounded() || atAnchor == 0) {
            o.set("bound_growth", NODES.nullNode());
            return;
        }
        double growth = atT == LinkEstimate.UNBOUNDED ? Double.POSITIVE_INFINITY : (double) atT / atAnchor;
        o.put("bound_growth", Double.isFinite(growth) ? growth : Double.MAX_VALUE);
        if (growth > GROWN) {
            o.put("note", "t lies " + Durations.format(Math.abs((double) d)) + (d < 0 ? " before" : " after")
                    + " anchor_ns, the newest time of the data behind this factor: the bound grew from "
                    + Durations.format(atAnchor / 1000.0) + " there to " + Durations.format(atT / 1000.0)
                    + " here; a time nearer anchor_ns (GET /factors/" + o.get("node").asText() + ") is bound tighter");
        }
    }

    static Reply error(int status, String message) {
        JsonNode o = NODES.objectNode().put("error", message);
        return Reply.json(status, o.toString());
    }
}
