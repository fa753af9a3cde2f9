package io.tracesync.eval;

/**
 * An online least-squares line y = slope·x + intercept (Welford's updates of the means and co-moments, stable in
 * double), over points given relative to an origin chosen by the caller so that they stay small.
 */
final class LeastSquares {

    private long count;
    private double meanX;
    private double meanY;
    private double sxx;
    private double sxy;

    void add(double x, double y) {
        count++;
        double dx = x - meanX;
        meanX += dx / count;
        meanY += (y - meanY) / count;
        sxx += dx * (x - meanX);
        sxy += dx * (y - meanY);
    }

    /** Whether the line is determined: at least two distinct x. */
    boolean defined() {
        return sxx > 0;
    }

    double slope() {
        return sxy / sxx;
    }

    double intercept() {
        return meanY - slope() * meanX;
    }
}
