package io.tracesync.streams.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tracesync.avro.SyncFactor;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.streams.config.Durations;
import io.tracesync.streams.iq.NetworkQueries;
import io.tracesync.streams.network.FactorHistoryStore;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
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
                            .orElseGet(() -> unknown(path.get(1))) : null;
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

    /** 404 for a node without a factor, naming the one it likely means ({@link UnknownNode}). */
    private Reply unknown(String node) {
        return error(404, UnknownNode.message(node, queries.factors().stream().map(f -> f.getNode().toString())
                .toList()));
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
        // the versions kept around t and the latest published, which the history may not have kept
        NetworkQueries.Around around = queries.history(node, localNs);
        SyncFactor latest = queries.factor(node).orElse(null);
        Map<Long, SyncFactor> records = new HashMap<>();
        for (SyncFactor r : new SyncFactor[] {around.inForce(), around.next(), latest}) {
            if (r != null) {
                records.put(r.getVersion(), r);
            }
        }
        if (records.isEmpty()) {
            return unknown(node);
        }
        HistoricConversion c;
        try {
            c = NodeHistory.around(localNs, version(around.inForce()), version(around.next()), version(latest));
        } catch (ArithmeticException e) {
            return error(400, "t=" + t + " converts outside the range of nanosecond timestamps");
        }
        SyncFactor f = records.get(c.version().number());
        ObjectNode o = NODES.objectNode();
        o.put("node", node);
        o.put("component", f.getComponent().toString());
        o.put("reference", f.getReference().toString());
        o.set("local_ns", AvroJson.integer(localNs));
        o.put("reference_ns", c.referenceNs().setScale(3, RoundingMode.HALF_EVEN).toPlainString());
        o.set("nearest_ns", AvroJson.integer(c.nearestNs()));
        o.set("lower_ns", c.lowerNs() == null ? NODES.nullNode() : AvroJson.integer(c.lowerNs()));
        o.set("upper_ns", c.upperNs() == null ? NODES.nullNode() : AvroJson.integer(c.upperNs()));
        o.set("version", AvroJson.integer(f.getVersion()));
        o.set("valid_from_ms", AvroJson.integer(f.getValidFromMs()));
        o.set("next_version", c.next() == null ? NODES.nullNode() : AvroJson.integer(c.next().number()));
        o.put("basis", c.basis().name().toLowerCase(Locale.ROOT));
        o.set("from_data_ns", AvroJson.integer(c.fromDataNs()));
        o.put("truncated", c.truncated());
        distanceFromAnchor(o, c);
        // under the datasheet: the versions at hand of the answer's reference, intersected (NodeHistory)
        Conversion sheet = NodeHistory.aroundUnderDatasheet(localNs, f.getReference().toString(),
                version(around.inForce()), version(around.next()), version(latest));
        o.set("datasheet_lower_ns", sheet == null ? NODES.nullNode() : AvroJson.integer(sheet.lowerNs()));
        o.set("datasheet_upper_ns", sheet == null ? NODES.nullNode() : AvroJson.integer(sheet.upperNs()));
        if (truth != null) {
            truth.referenceAt(node, f.getReference().toString(), localNs).ifPresent(trueNs -> {
                o.set("true_reference_ns", AvroJson.integer(trueNs));
                o.set("true_error_ns", NODES.numberNode(c.referenceNs().subtract(BigDecimal.valueOf(trueNs))
                        .setScale(3, RoundingMode.HALF_EVEN)));
                o.put("inside", c.lowerNs() != null && c.lowerNs() <= trueNs && trueNs <= c.upperNs());
                if (sheet != null) {
                    o.put("datasheet_inside", sheet.lowerNs() <= trueNs && trueNs <= sheet.upperNs());
                }
            });
        }
        return Reply.json(200, o.toString());
    }

    private static FactorVersion version(SyncFactor r) {
        return r == null ? null : FactorHistoryStore.version(r);
    }

    /**
     * How far t lies from the anchor of the version that answered — the newest time of the data behind it, where
     * its bounds are tightest — and how much the bound grew on the way; an answer carried past {@link #GROWN} times
     * the anchor's bound says so in a sentence. An answer between two versions carries no bound that far.
     */
    private static void distanceFromAnchor(ObjectNode o, HistoricConversion c) {
        Factor f = c.version().factor();
        long t = c.localNs();
        long d = t - f.anchorNs();
        o.set("anchor_ns", AvroJson.integer(f.anchorNs()));
        o.set("from_anchor_ns", AvroJson.integer(d));
        long atAnchor = Math.max(f.upPs(), f.downPs());
        if (!f.bounded() || atAnchor == 0 || !c.bounded()) {
            o.set("bound_growth", NODES.nullNode());
            return;
        }
        // carried: the version's own bound at t; between two versions: the interval's larger side
        long atT = c.next() == null ? Math.max(f.upAtPs(t), f.downAtPs(t))
                : BigDecimal.valueOf(c.upperNs()).subtract(c.referenceNs()).max(c.referenceNs()
                        .subtract(BigDecimal.valueOf(c.lowerNs()))).movePointRight(3).longValue();
        double growth = atT == LinkEstimate.UNBOUNDED ? Double.MAX_VALUE : (double) atT / atAnchor;
        o.put("bound_growth", growth);
        if (c.basis() != HistoricConversion.Basis.INTERPOLATED && growth > GROWN) {
            String where = c.truncated() ? "before the oldest version the history still holds (older ones expired "
                    + "after factors.history.retention)" : d < 0 ? "before the node's oldest version"
                    : "past the data of this version";
            o.put("note", "t lies " + Durations.format(Math.abs((double) d)) + (d < 0 ? " before" : " after")
                    + " anchor_ns, " + where + ": the bound grew from " + Durations.format(atAnchor / 1000.0)
                    + " there to " + Durations.format(atT / 1000.0) + " here; a time nearer anchor_ns (GET /factors/"
                    + o.get("node").asText() + ") is bound tighter");
        }
    }

    static Reply error(int status, String message) {
        JsonNode o = NODES.objectNode().put("error", message);
        return Reply.json(status, o.toString());
    }
}
