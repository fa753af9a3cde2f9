package io.tracesync.core.link;

import java.time.Duration;

/**
 * Per-link settings.
 *
 * @param horizonNs       sliding horizon H in nanoseconds of a's clock; 0 keeps every pair forever ("none")
 * @param minDelayAtoBNs  known minimum one-way delay a-&gt;b in ns (Ashton 1995 §4.2); 0 = unknown
 * @param minDelayBtoANs  known minimum one-way delay b-&gt;a in ns; 0 = unknown
 */
public record LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs) {

    public static final Duration DEFAULT_HORIZON = Duration.ofMinutes(30);
    public static final LinkOptions DEFAULT = new LinkOptions(DEFAULT_HORIZON.toNanos(), 0, 0);
    public static final LinkOptions NO_HORIZON = new LinkOptions(0, 0, 0);

    public LinkOptions {
        if (horizonNs < 0 || horizonNs == 1) {
            throw new IllegalArgumentException("horizon must be 0 (none) or at least 2 ns: " + horizonNs);
        }
        if (minDelayAtoBNs < 0 || minDelayBtoANs < 0) {
            throw new IllegalArgumentException("minimum delays cannot be negative");
        }
    }

    public boolean hasHorizon() {
        return horizonNs > 0;
    }

    public LinkOptions withHorizon(long ns) {
        return new LinkOptions(ns, minDelayAtoBNs, minDelayBtoANs);
    }

    public LinkOptions withMinDelays(long aToBNs, long bToANs) {
        return new LinkOptions(horizonNs, aToBNs, bToANs);
    }
}
