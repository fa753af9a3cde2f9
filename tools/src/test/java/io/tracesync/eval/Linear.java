package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Two hand-made linear clocks, a(t) = t and b(t) = t + 1000, both with minimum delay 3 ns. */
final class Linear implements TrueClocks {

    static final Linear CLOCKS = new Linear();

    private Linear() {
    }

    @Override
    public long localAt(String node, long trueNs) {
        return node.equals("a") ? trueNs : trueNs + 1000;
    }

    @Override
    public Long minDelayNs(String sender, String receiver) {
        return 3L;
    }

    static FactorRow row(long trueNs, String node, String reference, long offset, long upPs, long downPs) {
        return new FactorRow(trueNs, node, reference, ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(offset)), upPs,
                downPs);
    }

    /** The factors a→b = t + 1000 (exact) and b's identity, drained at true time 0. */
    static Replay.Result exact(long endNs) {
        return new Replay.Result(List.of(row(0, "a", "b", 1000, 0, 0), row(0, "b", "b", 0, 0, 0)),
                Map.of(new LinkKey("a", "b"), new LinkTiming(0, OptionalLong.empty(), List.of())), 10, endNs);
    }

    static BufferedReader csv(String... lines) {
        return new BufferedReader(new StringReader(String.join("\n", lines)));
    }

    static final long UNBOUNDED = LinkEstimate.UNBOUNDED;
}
