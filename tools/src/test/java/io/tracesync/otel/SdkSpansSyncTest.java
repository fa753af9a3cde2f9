package io.tracesync.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.NetworkOptions;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.eval.ErrorStats;
import io.tracesync.eval.MidpointBaseline;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spans of the real OpenTelemetry SDK on hosts with skewed, drifting clocks, through OTLP protobuf and the offline
 * core: the factors hold every host's true clock map within their bounds, and are compared with the Zipkin/Jaeger
 * midpoint heuristic on the same calls.
 */
class SdkSpansSyncTest {

    @Test
    void theFactorsBoundTheTrueClocksAndBeatTheMidpointHeuristic() throws IOException {
        SkewedHosts sim = new SkewedHosts(2026);
        SkewedHosts.Host gateway = sim.host("gateway", 0, 0);
        SkewedHosts.Host api = sim.host("api", 37_400_000, 23.5);
        SkewedHosts.Host db = sim.host("db", -1_250_000_000L, -41.0);
        SkewedHosts.Host cache = sim.host("cache", 8_000_000, 12.25);
        SkewedHosts.Host auth = sim.host("auth", -3_100_000, -7.0);
        List<SkewedHosts.Host[]> links = List.of(new SkewedHosts.Host[] {gateway, api},
                new SkewedHosts.Host[] {api, db}, new SkewedHosts.Host[] {api, cache},
                new SkewedHosts.Host[] {gateway, auth});
        for (int i = 0; i < 4000; i++) {
            SkewedHosts.Host[] l = links.get(i % links.size());
            sim.call(l[0], l[1], SkewedHosts.T0 + i * 150_000_000L);
        }

        List<RpcExchange> exchanges = new ArrayList<>();
        SpanPairer pairer = new SpanPairer(100_000, exchanges::add, m -> { });
        OtlpSpans spans = new OtlpSpans(HostIdentity.DEFAULT);
        for (byte[] request : sim.requests(128, false)) {
            spans.read(OtlpFormat.OTLP_PROTO.decode(request), pairer::accept, pairer::accept);
        }
        pairer.finish();
        assertEquals(new SpanPairer.Counts(8000, 4000, 0, 0, 0, 0, 0, 0), pairer.counts());

        List<SendReceive> pairs = new ArrayList<>();
        exchanges.forEach(x -> {
            pairs.add(x.request());
            pairs.add(x.response());
        });
        Map<String, NodeFactor> factors = io.tracesync.core.network.OfflineSync.factors(pairs,
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT);
        assertEquals(5, factors.size());

        Map<String, SkewedHosts.Host> byName = new HashMap<>();
        sim.hosts.forEach(h -> byName.put(h.name, h));
        Map<String, RpcExchange> byRequest = new HashMap<>();
        exchanges.forEach(x -> byRequest.put(x.client().host() + "@" + x.client().startNs(), x));
        ErrorStats midpoint = new ErrorStats();
        ErrorStats tracesync = new ErrorStats();
        for (SkewedHosts.Call call : sim.calls) {
            long t = call.requestReceivedNs();
            for (SkewedHosts.Host h : sim.hosts) {
                NodeFactor f = factors.get(h.name);
                long truth = byName.get(f.reference()).localAt(t);
                Conversion c = Conversion.of(f.factor(), h.localAt(t));
                assertNotNull(c.lowerNs(), h.name);
                assertNotNull(c.upperNs(), h.name);
                assertTrue(c.lowerNs() <= truth && truth <= c.upperNs(), () -> h.name + " at " + t + ": "
                        + truth + " outside [" + c.lowerNs() + ", " + c.upperNs() + "]");
            }
            RpcExchange x = byRequest.get(call.client().name + "@" + call.client().localAt(call.requestSentNs()));
            long trueOffset = call.server().localAt(t) - call.client().localAt(t);
            midpoint.add(MidpointBaseline.offset(x.request(), x.response()) - trueOffset, false, false);
            tracesync.add(error(factors, byName, call.server(), t) - error(factors, byName, call.client(), t),
                    false, false);
        }
        System.out.println("SdkSpansSyncTest midpoint:  " + midpoint);
        System.out.println("SdkSpansSyncTest tracesync: " + tracesync);
        assertEquals(4000, midpoint.count());
        assertTrue(tracesync.medianNs() < midpoint.medianNs() && tracesync.p99Ns() < midpoint.p99Ns(),
                () -> "tracesync " + tracesync + " vs midpoint " + midpoint);
    }

    /**
     * Messages through a broker, half each way, half the consumers children of their producer and half linking to
     * it: the factors hold the true clocks within their bounds. Messages one way only bound the offset from one
     * side: the hosts stay apart, each its own reference.
     */
    @Test
    void messagesBothWaysBoundTheClocksOneWayCannot() throws IOException {
        SkewedHosts sim = new SkewedHosts(11);
        SkewedHosts.Host api = sim.host("api", 0, 0);
        SkewedHosts.Host worker = sim.host("worker", 250_000_000, -18.5);
        for (int i = 0; i < 2000; i++) {
            sim.publish(i % 2 == 0 ? api : worker, i % 2 == 0 ? worker : api, SkewedHosts.T0 + i * 300_000_000L,
                    i % 4 < 2);
        }
        List<SendReceive> pairs = new ArrayList<>();
        SpanPairer pairer = new SpanPairer(100_000, x -> {
            throw new AssertionError("no call here: " + x);
        }, m -> pairs.add(m.message()));
        OtlpSpans spans = new OtlpSpans(HostIdentity.DEFAULT);
        for (byte[] request : sim.requests(64, false)) {
            spans.read(OtlpFormat.OTLP_PROTO.decode(request), x -> {
                throw new AssertionError("no call here: " + x);
            }, pairer::accept);
        }
        pairer.finish();
        assertEquals(new SpanPairer.Counts(4000, 0, 2000, 0, 0, 0, 0, 0), pairer.counts());

        Map<String, NodeFactor> factors = io.tracesync.core.network.OfflineSync.factors(pairs,
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT);
        assertEquals(2, factors.size());
        ErrorStats errors = new ErrorStats();
        long widest = 0;
        for (SkewedHosts.Message m : sim.messages) {
            NodeFactor f = factors.get("worker");
            SkewedHosts.Host reference = f.reference().equals("api") ? api : worker;
            SkewedHosts.Host other = reference == api ? worker : api;
            long t = m.receivedNs();
            long truth = reference.localAt(t);
            Conversion c = Conversion.of(factors.get(other.name).factor(), other.localAt(t));
            assertTrue(c.lowerNs() <= truth && truth <= c.upperNs(), () -> other.name + " at " + t + ": " + truth
                    + " outside [" + c.lowerNs() + ", " + c.upperNs() + "]");
            errors.add(c.referenceNs().subtract(BigDecimal.valueOf(truth)).doubleValue(), false, false);
            widest = Math.max(widest, c.upperNs() - c.lowerNs());
        }
        System.out.println("SdkSpansSyncTest messages: error " + errors + ", widest interval " + widest + " ns");

        List<SendReceive> oneWay = pairs.stream().filter(p -> p.sender().equals("api")).toList();
        assertEquals(1000, oneWay.size());
        Map<String, NodeFactor> apart = io.tracesync.core.network.OfflineSync.factors(oneWay,
                LinkOptions.NO_HORIZON, NetworkOptions.DEFAULT);
        assertEquals("api", apart.get("api").reference());
        assertEquals("worker", apart.get("worker").reference(), "a one-way link bounds the offset from one side only");
    }

    /** How far host h's converted time at true time t is from its reference's true clock (ns). */
    private static double error(Map<String, NodeFactor> factors, Map<String, SkewedHosts.Host> hosts,
            SkewedHosts.Host h, long t) {
        NodeFactor f = factors.get(h.name);
        BigDecimal converted = Conversion.of(f.factor(), h.localAt(t)).referenceNs();
        return converted.subtract(BigDecimal.valueOf(hosts.get(f.reference()).localAt(t))).doubleValue();
    }
}
