package io.tracesync.sim;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One-way delay of a delivered transmission: the direction's minimum, plus a heavy-tailed extra (exponential or
 * log-normal with σ = 1, of the given mean), plus now and then a large interrupt delay (exponential). After the
 * study's §7: "most packets take the same, close to minimal, time, while a few packets may be delayed
 * significantly", the outliers being receptions whose interrupt was held up while the kernel had interrupts
 * disabled (§4.2, §8); interrupt latency itself is about 8 µs (§3).
 */
public final class DelayModel {

    /** Shape of the extra delay. */
    public enum Distribution {
        EXPONENTIAL, LOGNORMAL;

        public static Distribution parse(String s) {
            try {
                return valueOf(s.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + s + "' is not a delay distribution (exponential, lognormal)");
            }
        }
    }

    private static final double SIGMA = 1.0;

    private final Distribution distribution;
    private final double extraMeanNs;
    private final double interruptProbability;
    private final double interruptMeanNs;

    public DelayModel(Distribution distribution, long extraMeanNs, double interruptProbability, long interruptMeanNs) {
        this.distribution = distribution;
        this.extraMeanNs = extraMeanNs;
        this.interruptProbability = interruptProbability;
        this.interruptMeanNs = interruptMeanNs;
    }

    /** A delay of at least {@code minNs}. */
    long sample(long minNs, SplittableRandom r) {
        double extra = switch (distribution) {
            case EXPONENTIAL -> exponential(extraMeanNs, r);
            case LOGNORMAL -> extraMeanNs == 0 ? 0
                    : Math.exp(Math.log(extraMeanNs) - SIGMA * SIGMA / 2 + SIGMA * r.nextGaussian());
        };
        if (interruptProbability > 0 && r.nextDouble() < interruptProbability) {
            extra += exponential(interruptMeanNs, r);
        }
        return minNs + (long) extra;
    }

    /** An exponential variate of the given mean. */
    static double exponential(double mean, SplittableRandom r) {
        return -mean * Math.log(1 - r.nextDouble());
    }
}
