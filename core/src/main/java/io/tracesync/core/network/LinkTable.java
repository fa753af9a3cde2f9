package io.tracesync.core.network;

/**
 * What the systems read of every link, copied into flat arrays: the estimates are objects spread over the heap,
 * and every system passes over all links several times.
 */
final class LinkTable {

    final boolean[] bounded;
    final boolean[] estimated;
    final double[] minSlope;
    final double[] maxSlope;
    final double[] accuracy;
    final double[] slopeHi;
    final double[] slopeLo;
    final double[] offsetHi;
    final double[] offsetLo;
    final long[] latest;
    final long[] up;
    final long[] down;
    final double[] curvature;
    final double[] step;
    /**
     * Each link's offset excursion Φ in ps ({@link LinkEstimate#excursionPs}): {@link #up} and {@link #down} are its
     * bounds without it, the interval of the curve its relation departs from by at most Φ.
     */
    final long[] excursion;
    /**
     * The log-slope system's weights of a link without curvature, which depend on its slope range alone
     * (computed once per estimate; with curvature the range widens with the evaluation time, so per solve).
     */
    final long[] logUp;
    final long[] logDown;

    LinkTable(LinkEstimate[] links) {
        int m = links.length;
        bounded = new boolean[m];
        estimated = new boolean[m];
        minSlope = new double[m];
        maxSlope = new double[m];
        accuracy = new double[m];
        slopeHi = new double[m];
        slopeLo = new double[m];
        offsetHi = new double[m];
        offsetLo = new double[m];
        latest = new long[m];
        up = new long[m];
        down = new long[m];
        curvature = new double[m];
        step = new double[m];
        excursion = new long[m];
        logUp = new long[m];
        logDown = new long[m];
        for (int l = 0; l < m; l++) {
            set(l, links[l]);
        }
    }

    void set(int l, LinkEstimate e) {
        bounded[l] = e.bounded();
        estimated[l] = e.aToB() != null;
        minSlope[l] = e.minSlope();
        maxSlope[l] = e.maxSlope();
        accuracy[l] = e.slopeAccuracy();
        latest[l] = e.latestNs();
        excursion[l] = e.excursionPs();
        up[l] = curve(e.upPs(), excursion[l]);
        down[l] = curve(e.downPs(), excursion[l]);
        curvature[l] = e.curvature();
        step[l] = e.step();
        slopeHi[l] = estimated[l] ? e.aToB().slope().hi() : 0;
        slopeLo[l] = estimated[l] ? e.aToB().slope().lo() : 0;
        offsetHi[l] = estimated[l] ? e.aToB().offset().hi() : 0;
        offsetLo[l] = estimated[l] ? e.aToB().offset().lo() : 0;
        if (curvature[l] == 0) {
            logUp[l] = IntervalSolution.logUpWeight(maxSlope[l]);
            logDown[l] = IntervalSolution.logDownWeight(minSlope[l]);
        }
    }

    /**
     * A bound less the excursion: the curve's, which the network combines (clocks that each depart from a smooth
     * clock by at most Φ/2.002 relate along any path as their smooth clocks do, within Φ: docs/LINK-CORE.md, "Offset
     * excursions"); at least 0, which is wider where the estimate lay outside the curve's interval.
     */
    private static long curve(long bound, long excursionPs) {
        return bound == LinkEstimate.UNBOUNDED ? bound : Math.max(0, bound - excursionPs);
    }

    /** {@link LinkEstimate#upAtPs} of link l at x. */
    long upAt(int l, long x) {
        return LinkEstimate.envelopePs(up[l], x, latest[l], maxSlope[l], minSlope[l], slopeHi[l], slopeLo[l],
                curvature[l]);
    }

    /** {@link LinkEstimate#downAtPs} of link l at x. */
    long downAt(int l, long x) {
        return LinkEstimate.envelopePs(down[l], x, latest[l], minSlope[l], maxSlope[l], slopeHi[l], slopeLo[l],
                curvature[l]);
    }
}
