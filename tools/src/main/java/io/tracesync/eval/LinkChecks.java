package io.tracesync.eval;

/**
 * One link's messages after correction (Poirier 2010 §4.1, Ashton 1995 §6.1): how many could be corrected (both
 * ends in one component), how many then arrive before they were sent (inversions), how many of those arrived in a
 * detection window ({@link Departures}), and how many arrive sooner than the link's minimum delay allows
 * (inversions included); of the inversions, the deepest (ns before it was sent) and the true times the first and
 * the last were received ({@link Long#MAX_VALUE} and {@link Long#MIN_VALUE} without any).
 */
public record LinkChecks(long corrected, long inversions, long inversionsInWindows, long fasterThanMinimum,
        double deepestInversionNs, long firstInversionNs, long lastInversionNs) {

    static final LinkChecks NONE = new LinkChecks(0, 0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE);

    LinkChecks plus(double delayNs, long minDelayNs, boolean inWindow, long trueRecvNs) {
        boolean inverted = delayNs < 0;
        return new LinkChecks(corrected + 1, inversions + (inverted ? 1 : 0),
                inversionsInWindows + (inverted && inWindow ? 1 : 0),
                fasterThanMinimum + (delayNs < minDelayNs ? 1 : 0),
                inverted ? Math.max(deepestInversionNs, -delayNs) : deepestInversionNs,
                inverted ? Math.min(firstInversionNs, trueRecvNs) : firstInversionNs,
                inverted ? Math.max(lastInversionNs, trueRecvNs) : lastInversionNs);
    }
}
