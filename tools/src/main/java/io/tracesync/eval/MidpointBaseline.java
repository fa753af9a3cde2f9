package io.tracesync.eval;

import io.tracesync.core.link.SendReceive;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * The Zipkin/Jaeger heuristic (offset only, symmetric latency): for a request x→y (cs on x's clock, sr on y's)
 * answered by y→x (ss, cr), y's clock is taken to be x's plus θ = ((sr − cs) − (cr − ss)) / 2. Exchanges are
 * consecutive opposite messages of a link whose answer is sent after the request arrives. Each exchange is
 * scored per link at the request's true arrival T: error = θ − (local_y(T) − local_x(T)); tracesync is scored
 * on the same exchanges by the relative error of its factors for x and y, when both share a reference.
 */
public final class MidpointBaseline {

    private final FactorHistory history;
    private final TrueClocks truth;
    private final ErrorStats midpoint = new ErrorStats();
    private final ErrorStats tracesync = new ErrorStats();

    /** The errors of both methods on the same exchanges (tracesync's only where it covers both ends). */
    public record Comparison(ErrorStats midpoint, ErrorStats tracesync) {
    }

    private MidpointBaseline(Replay.Result replay, TrueClocks truth) {
        this.history = new FactorHistory(replay.factors());
        this.truth = truth;
    }

    public static Comparison run(BufferedReader truthPairs, String source, Replay.Result replay, TrueClocks truth)
            throws IOException {
        MidpointBaseline b = new MidpointBaseline(replay, truth);
        Exchanges<TruthPair> exchanges = new Exchanges<>(TruthPair::pair, (q, a) -> b.score(q, a.pair()));
        TruthPair.read(truthPairs, source, exchanges::accept);
        return new Comparison(b.midpoint, b.tracesync);
    }

    /** The heuristic's answer for one exchange: θ, the answerer's clock minus the requester's. */
    public static double offset(SendReceive request, SendReceive answer) {
        return Exchanges.offset(request, answer);
    }

    private void score(TruthPair request, SendReceive answer) {
        SendReceive q = request.pair();
        String x = q.sender();
        String y = q.receiver();
        long t = request.trueRecvNs();
        long lx = truth.localAt(x, t);
        long ly = truth.localAt(y, t);
        double theta = offset(q, answer);
        midpoint.add(theta - (double) (ly - lx), false, false);
        FactorRow fx = history.at(x, t);
        FactorRow fy = history.at(y, t);
        if (fx != null && fy != null && fx.reference().equals(fy.reference())) {
            tracesync.add(Metrics.errorNs(fy, t, truth) - Metrics.errorNs(fx, t, truth), false, false);
        }
    }
}
