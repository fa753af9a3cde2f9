package io.tracesync.core.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-link settings.
 *
 * @param horizonNs         sliding horizon H in nanoseconds of a's clock; 0 keeps every pair forever ("none")
 * @param minDelayAtoBNs    known minimum one-way delay a-&gt;b in ns (Ashton 1995 §4.2); 0 = unknown
 * @param minDelayBtoANs    known minimum one-way delay b-&gt;a in ns; 0 = unknown
 * @param curvaturePpbPerS  the clock model ρ′: how fast the relative frequency of the two clocks may change, in parts
 *                          per billion per second (docs/LINK-CORE.md, "Clocks that bend"); 0 = linear clocks
 * @param shortestWindowNs  with ρ′ &gt; 0, the shortest of the windows the link keeps (each 4× the last, up to H)
 * @param stepPpb           κ: on top of ρ′, the relative frequency may step (a time daemon's updates, the ends of
 *                          its slews) by at most this much in all within any {@code stepIntervalNs}, in ppb; 0 = no
 *                          steps (docs/LINK-CORE.md, "Frequency steps")
 * @param stepIntervalNs    τ, in ns of a's clock: the interval within which the steps add up to at most κ
 * @param maxDriftPpm       R: each clock's rate stays within ±R of true time, the datasheet's statement the second
 *                          bound rests on ({@link DatasheetBounds}); 0 = no such bound
 * @param excursionNs       Φ: on top of the clock model, the relation may depart from a curve the model describes by
 *                          at most this many ns either way (the offsets a time daemon slews out); 0 = none
 *                          (docs/LINK-CORE.md, "Offset excursions")
 */
public record LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, double curvaturePpbPerS,
        long shortestWindowNs, double stepPpb, long stepIntervalNs, double maxDriftPpm, long excursionNs) {

    public static final Duration DEFAULT_HORIZON = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SHORTEST_WINDOW = Duration.ofSeconds(30);
    /**
     * The clock model of the application's default settings, ρ′ = 20 ppb/s (docs/LINK-CORE.md, "Clocks that bend");
     * {@link #DEFAULT} keeps linear clocks.
     */
    public static final double DEFAULT_CURVATURE_PPB_PER_S = 20;
    /**
     * How much longer each window is than the one before: 4 answers as well as 2 on every run of docs/ACCURACY.md
     * (the best of windows a factor 4 apart is within a factor 2 of the best length, and the bounds' width is flat
     * around it) at half the epochs.
     */
    public static final long WINDOW_RATIO = 4;
    /** The largest allowance ρ′W²/8 of a window kept under a clock model: 1 ms. */
    public static final double MAX_ALLOWANCE_NS = 1e6;
    /** τ of the application's default settings, s: chrony's shortest update interval ({@code minpoll} 6). */
    public static final long DEFAULT_STEP_INTERVAL_S = 64;
    public static final Duration DEFAULT_STEP_INTERVAL = Duration.ofSeconds(DEFAULT_STEP_INTERVAL_S);
    /** The largest excursion: 1 s, far beyond any daemon's slewed offset worth a bound. */
    public static final long MAX_EXCURSION_NS = 1_000_000_000L;
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
        if (!(stepPpb >= 0) || stepPpb > 1e9) {
            throw new IllegalArgumentException("frequency steps must be between 0 and 10^9 ppb: " + stepPpb);
        }
        if (stepPpb > 0 && curvaturePpbPerS == 0) {
            throw new IllegalArgumentException("frequency steps need the clock model (a curvature above 0)");
        }
        if (stepIntervalNs < 1) {
            throw new IllegalArgumentException("the steps' interval must be at least 1 ns: " + stepIntervalNs);
        }
        if (!(maxDriftPpm >= 0) || maxDriftPpm >= 1e6) {
            throw new IllegalArgumentException("the largest drift must be in [0, 10^6) ppm: " + maxDriftPpm);
        }
        if (excursionNs < 0 || excursionNs > MAX_EXCURSION_NS) {
            throw new IllegalArgumentException("the excursion must be between 0 and 1 s: " + excursionNs + " ns");
        }
    }

    /** Without an excursion (Φ = 0). */
    public LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, double curvaturePpbPerS,
            long shortestWindowNs, double stepPpb, long stepIntervalNs, double maxDriftPpm) {
        this(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, stepPpb, stepIntervalNs,
                maxDriftPpm, 0);
    }

    /** Without the datasheet bound (R = 0). */
    public LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, double curvaturePpbPerS,
            long shortestWindowNs, double stepPpb, long stepIntervalNs) {
        this(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, stepPpb, stepIntervalNs,
                0);
    }

    /** Linear clocks (ρ′ = 0): one window, the horizon. */
    public LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs) {
        this(horizonNs, minDelayAtoBNs, minDelayBtoANs, 0, DEFAULT_SHORTEST_WINDOW.toNanos());
    }

    /** Without frequency steps (κ = 0). */
    public LinkOptions(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, double curvaturePpbPerS,
            long shortestWindowNs) {
        this(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, 0,
                DEFAULT_STEP_INTERVAL.toNanos());
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
        return perNs(curvaturePpbPerS);
    }

    /**
     * The curvature a window of length w is relaxed by: ρ′ + 2κ/τ + 2κ/w per ns. Steps adding up to at most κ within
     * any τ, at most κ(L/τ + 1) within any L ≥ w, move every second divided difference over points spanning L by at
     * most κ(1/τ + 1/L) besides ρ′/2 — so the window's allowance, its slope range's widening and its bounds away from
     * its range all hold with this curvature in place of ρ′ (docs/LINK-CORE.md, "Frequency steps").
     */
    public double windowCurvaturePerNs(long w) {
        double kappa = stepPpb * 1e-9;
        return kappa == 0 ? curvaturePerNs() : curvaturePerNs() + 2 * kappa / stepIntervalNs + 2 * kappa / w;
    }

    /**
     * The curvature a link's bounds are carried by away from its latest time, beyond its slope range: ρ′ + κ/τ per
     * ns. The steps within a window and the next d add up to at most κ((W + d)/τ + 1), which the window's turn
     * ρ_W·W/2 (κW/τ + κ of it) and this curvature's (κ/τ)·d cover.
     */
    public double carriedCurvaturePerNs() {
        return perNs(carriedCurvaturePpbPerS());
    }

    /** {@link #carriedCurvaturePerNs} in ppb per second. */
    public double carriedCurvaturePpbPerS() {
        return stepPpb == 0 ? curvaturePpbPerS : curvaturePpbPerS + stepPpb * 1e9 / stepIntervalNs;
    }

    /** A curvature in ppb per second as ρ′ per nanosecond. */
    public static double perNs(double ppbPerS) {
        return ppbPerS * 1e-18;
    }

    /**
     * The windows' lengths, shortest first: with ρ′ = 0 the horizon alone; else the shortest window multiplied by
     * {@link #WINDOW_RATIO} while shorter than the horizon and while the allowance of the next, ρ′W²/8, stays within
     * {@link #MAX_ALLOWANCE_NS} (a window that bends more than that never gives the narrowest bounds), then the
     * horizon if it is within it.
     */
    public long[] windows() {
        if (!bending() || shortestWindowNs >= horizonNs) {
            return new long[] {horizonNs};
        }
        List<Long> out = new ArrayList<>();
        long w = shortestWindowNs;
        do {
            out.add(w);
            w = w <= Long.MAX_VALUE / WINDOW_RATIO ? WINDOW_RATIO * w : Long.MAX_VALUE;
        } while (w < horizonNs && allowanceNs(w) <= MAX_ALLOWANCE_NS);
        if (w >= horizonNs && allowanceNs(horizonNs) <= MAX_ALLOWANCE_NS) {
            out.add(horizonNs);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** The most a window of length w may bend under this model: ρ_w·w²/8 ({@link #windowCurvaturePerNs}), in ns. */
    public double allowanceNs(long w) {
        return windowCurvaturePerNs(w) * w * (double) w / 8;
    }

    public LinkOptions withHorizon(long ns) {
        return new LinkOptions(ns, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, stepPpb,
                stepIntervalNs, maxDriftPpm, excursionNs);
    }

    public LinkOptions withMinDelays(long aToBNs, long bToANs) {
        return new LinkOptions(horizonNs, aToBNs, bToANs, curvaturePpbPerS, shortestWindowNs, stepPpb,
                stepIntervalNs, maxDriftPpm, excursionNs);
    }

    /** These options with the datasheet bound of clocks within ±{@code ppm} of true time (0: none). */
    public LinkOptions withMaxDrift(double ppm) {
        return new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, stepPpb,
                stepIntervalNs, ppm, excursionNs);
    }

    /** These options with frequency steps of at most κ = {@code ppb} in all within any {@code intervalNs}. */
    public LinkOptions withSteps(double ppb, long intervalNs) {
        return new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, ppb,
                intervalNs, maxDriftPpm, excursionNs);
    }

    /** Φ in picoseconds, as link summaries and the network carry it. */
    public long excursionPs() {
        return excursionNs * 1000;
    }

    /** These options with an excursion of at most Φ = {@code ns} either way (0: none). */
    public LinkOptions withExcursion(long ns) {
        return new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs, curvaturePpbPerS, shortestWindowNs, stepPpb,
                stepIntervalNs, maxDriftPpm, ns);
    }

    /**
     * Options with the clock model a user asked for: ρ′ = {@code curvature} ppb/s when given, else the default
     * {@link #DEFAULT_CURVATURE_PPB_PER_S} — or linear clocks when there is no horizon (keeping every pair for ever
     * presumes clocks that stay linear).
     *
     * @throws IllegalArgumentException if a curvature above 0 is given without a horizon
     */
    public static LinkOptions withModel(long horizonNs, long minDelayAtoBNs, long minDelayBtoANs, Double curvature,
            long shortestNs) {
        LinkOptions linear = new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs);
        double rho = curvature != null ? curvature : horizonNs == 0 ? 0 : DEFAULT_CURVATURE_PPB_PER_S;
        return rho == 0 ? linear : linear.withCurvature(rho, shortestNs);
    }

    /** These options under the clock model ρ′ (ppb/s), with windows from {@code shortestNs} up to the horizon. */
    public LinkOptions withCurvature(double ppbPerS, long shortestNs) {
        return new LinkOptions(horizonNs, minDelayAtoBNs, minDelayBtoANs, ppbPerS, shortestNs, stepPpb,
                stepIntervalNs, maxDriftPpm, excursionNs);
    }
}
