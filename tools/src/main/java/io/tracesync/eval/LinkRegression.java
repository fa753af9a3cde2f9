package io.tracesync.eval;

import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;

/**
 * Duda et al.'s (1987) regression estimate of one link a~b (Poirier 2010 §2, Ashton 1995 §3): a message is the point
 * (a's timestamp, b's timestamp) — (send, receive) going a→b, (receive, send) going b→a — and each direction gets
 * its least-squares line of b's time on a's; the estimate of b's clock as a function of a's is the line midway
 * between the two (mean slope, mean intercept), which assumes the same delays both ways and gives no guarantee
 * against inversions. Points are taken relative to the link's first message, exactly, to stay small in double.
 */
final class LinkRegression {

    private final LeastSquares aToB = new LeastSquares();
    private final LeastSquares bToA = new LeastSquares();
    private boolean started;
    private long originA;
    private long originB;

    /** A message a→b ({@code fromA}) or b→a, with its timestamps on a's and on b's clock. */
    void add(boolean fromA, long aNs, long bNs) {
        if (!started) {
            started = true;
            originA = aNs;
            originB = bNs;
        }
        (fromA ? aToB : bToA).add(aNs - originA, bNs - originB);
    }

    /** b's clock as a function of a's, or null until both directions have a line (or if it would not increase). */
    ClockMap estimate() {
        if (!aToB.defined() || !bToA.defined()) {
            return null;
        }
        double slope = (aToB.slope() + bToA.slope()) / 2;
        double intercept = (aToB.intercept() + bToA.intercept()) / 2;
        return slope > 0 ? ClockMap.through(originA, DoubleDouble.of(originB).add(DoubleDouble.of(intercept)),
                DoubleDouble.of(slope)) : null;
    }
}
