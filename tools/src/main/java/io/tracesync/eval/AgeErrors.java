package io.tracesync.eval;

/**
 * The true errors of the conversions made some {@link Age} after the fact with the factor history, how many of them
 * were interpolated between the versions on both sides of the converted time, and the errors of the same
 * conversions with the newest factor known then alone, carried back to the time (a conversion without history).
 */
public record AgeErrors(Age age, ErrorStats errors, long interpolated, ErrorStats newest) {

    /** Share of the answers interpolated, in %; NaN without answers. */
    public double interpolatedPercent() {
        return errors.count() == 0 ? Double.NaN : 100.0 * interpolated / errors.count();
    }

    /** The median error over {@code live}'s; NaN where either is unknown or live's is 0. */
    public double errorRatio(ErrorStats live) {
        return ratio(errors.medianNs(), live.medianNs());
    }

    /** The median width over {@code live}'s; NaN where either is unknown or live's is 0. */
    public double widthRatio(ErrorStats live) {
        return ratio(errors.medianWidthNs(), live.medianWidthNs());
    }

    private static double ratio(double x, double live) {
        return live == 0 ? Double.NaN : x / live;
    }
}
