package io.tracesync.core.link;

import java.time.Duration;

/**
 * Per-link settings.
 *
 * @param horizonNs         sliding horizon H in nanoseconds of a's clock; 0 keeps every pair forever ("none")
 * @param minDelayAtoBNs    known minimum one-way delay a-&gt;b in ns (Ashton 1995 §4.2); 0 = unknown
 * @param minDelayBtoANs    known minimum one-way delay b-&gt;a in ns; 0 = unknown
 * @param curvaturePpbPerS  the clock model ρ′: how fast the relative frequency of the two clocks may change, in parts
 *                          per billion per second (docs/LINK-CORE.md, "Clocks that bend"); 0 = linear clocks
 * @param shortestWindowNs  with ρ′ &gt; 0, the shortest of the windows the link keeps (they double up to H)
 */
public record LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, double curvaturePpbPerS,
        long shortestWindowNs) {

    public static final Duration DEFAULT_HORIZON = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SHORTEST_WINDOW = Duration.ofSeconds(15);
    public static final LinkOptions DEFAULT = new LinkOptions(DEFAULT_HORIZON.toNanos(), 0, 0);
    public static final LinkOptions NO_HORIZON = new LinkOptions(0, 0, 0);

    public LinkOptions {
        if (horizonNs < 0 || horizonNs == 1) {
            throw new IllegalArgumentException("horizon must be 0 (none) or at least 2 ns: " + horizonNs);
        }
        if (minDelayAtoBNs < 0 || minDelayBtoANs < 0) {
            throw new IllegalArgumentException("minimum delays cannot be negative");
        }
        if (!(curvaturePpbPerS >= 0) || curvaturePpbPerS > 1e9) {
            throw new IllegalArgumentException("curvature must be between 0 and 10^9 ppb/s: " + curvaturePpbPerS);
        }
        if (curvaturePpbPerS > 0 && horizonNs == 0) {
            throw new IllegalArgumentException("clocks that bend need a horizon: no line holds for ever");
        }
        if (curvaturePpbPerS > 0 && shortestWindowNs < 2) {
            throw new IllegalArgumentException("the shortest window must be at least 2 ns: " + shortestWindowNs);
        }
    }

    /** Linear clocks (ρ′ = 0): one window, the horizon. */
    public LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs) {
        this(horizonNs, minDelayAtoBNs, minDelayBtoANs, 0, DEFAULT_SHORTEST_WINDOW.toNanos());
    }

    public boolean hasHorizon() {
        return horizonNs > 0;
    }

    /** Whether the clock model lets the relation bend (ρ′ &gt; 0). */
    public boolean bending() {
        return curvaturePpbPerS > 0;
    }

    /** ρ′ per nanosecond of a's clock: how far the relation's slope may turn per ns. */
    public double curvaturePerNs() {
        return curvaturePpbPerS * 1e-18;
    }

    /**
     * The windows' lengths, shortest first: with ρ′ = 0 the horizon alone; else the shortest window doubled while
     * shorter than the horizon, and the horizon.
     */
    public long[] windows() {
        if (!bending() || shortestWindowNs >= horizonNs) {
            return new long[] {horizonNs};
        }
        int n = 1;
        for (long w = shortestWindowNs; w < horizonNs && w <= Long.MAX_VALUE / 2; w *= 2) {
            n++;
        }
        long[] out = new long[n];
        long w = shortestWindowNs;
        for (int i = 0; i < n - 1; i++, w *= 2) {
            out[i] = w;
        }
        out[n - 1] = horizonNs;
        return out;
    }

    public LinkOptions withHorizon(long ns) {
        return new LinkOptions(ns, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs);
    }

    public LinkOptions withMinDelays(long aToBNs, long bToANs) {
        return new LinkOptions(horizonNs, aToBNs, bToANs, curvaturePpbPerS, shortestWindowNs);
    }

    /** These options under the clock model ρ′ (ppb/s), with windows from {@code shortestNs} up to the horizon. */
    public LinkOptions withCurvature(double ppbPerS, long shortestNs) {
        return new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs, ppbPerS, shortestNs);
    }
}
