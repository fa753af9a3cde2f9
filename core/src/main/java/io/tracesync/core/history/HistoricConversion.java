package io.tracesync.core.history;

import io.tracesync.core.network.Conversion;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A local time converted with a node's factor history: the reference's true time lies in [lowerNs, upperNs] (each
 * end null while unbounded) and {@code referenceNs} is the estimate inside it.
 *
 * <p>Where versions of the same reference lie on both sides of t ({@link Basis#INTERPOLATED}), three intervals
 * hold and the answer is their intersection: each version's bounds carried to t, as a live answer carries them,
 * and the chord of the two anchors' intervals widened by the clock model — with a = the earlier anchor, b = the
 * later, w = (t − a)/(b − a) and ρ′ the factors' curvature,
 * <pre>
 *   g(t) ∈ [(1 − w)·lo(a) + w·lo(b) − ε(t), (1 − w)·hi(a) + w·hi(b) + ε(t)],   ε(t) = ρ′(t − a)(b − t)/2,
 * </pre>
 * (with frequency steps ε(t) = (ρ′ + κ/(b − a))(t − a)(b − t), {@link #chordSlack})
 * since the relation g of the node's clock to the reference's lies in each version's interval at its anchor and
 * departs from any chord by at most ε (its second divided differences are at most ρ′/2: docs/LINK-CORE.md, "Clocks
 * that bend"; [Poirier 2010, §4.5] for the linear case, ε = 0). The chord's interval does not grow with the
 * versions' slope ranges, which dominate a carried bound. The estimate is the chord of the two anchors' estimates,
 * kept inside the interval. Otherwise one version's bounds are carried to t ({@link Basis#EXTRAPOLATED}), exactly
 * as {@link Conversion#of} does: the newest before t, the oldest after it, or across a change of reference the
 * nearer of the two around t (a reference's own identity: the earlier).
 *
 * @param localNs the converted time, ns of the node's clock
 * @param referenceNs the estimate, ns of the reference's clock (exact for an extrapolation, 6 decimals otherwise)
 * @param lowerNs the guaranteed lower end, rounded down; null while unbounded below
 * @param upperNs the guaranteed upper end, rounded up; null while unbounded above
 * @param version the version that answered: the one in force at t (the newest anchored at or before it), or the
 *     oldest held when t lies before every version, or across a change of reference the nearer of the two around t
 *     (the earlier if it is the node's own identity)
 * @param next the version anchored after t that the answer used, or null
 * @param basis how the answer was made
 * @param truncated whether t lies before the oldest version held while older versions existed (dropped for a
 *     memory budget or the retention, or never read: its number is not 1): those would have answered better
 */
public record HistoricConversion(long localNs, BigDecimal referenceNs, Long lowerNs, Long upperNs,
        FactorVersion version, FactorVersion next, Basis basis, boolean truncated) {

    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    /** Decimals of an interpolated estimate: femtoseconds, far below any bound. */
    private static final int ESTIMATE_SCALE = 6;

    /** How an answer was made. */
    public enum Basis {
        /** Versions of one reference on both sides of t, combined. */
        INTERPOLATED,
        /** One version's bounds carried to t: t is past the newest version or before the oldest, or the versions
         *  around t have different references (the nearer answers). */
        EXTRAPOLATED,
        /** The clocks left the model between the versions around t (a step): where the links placed it (the later
         *  version's {@link FactorVersion#steadyFromNs}, after the earlier's anchor), the version on t's side of it
         *  answers; where they did not but the two have no common point at t, the version in force, as live. */
        CONTRADICTED
    }

    /**
     * The answer for t from the version in force there and the next one: interpolated where both are given, else
     * the one given carried to t.
     *
     * @param inForce the newest version anchored at or before t, or null if there is none
     * @param next the oldest version anchored after t, or null if there is none
     * @param truncated whether versions older than {@code next} were dropped (used only when {@code inForce} is
     *     null; a {@code next} other than the node's first version says so too)
     * @throws IllegalArgumentException if neither is given or they do not lie on both sides of t
     * @throws ArithmeticException if a result does not fit a long
     */
    public static HistoricConversion of(FactorVersion inForce, FactorVersion next, long t, boolean truncated) {
        if (inForce == null && next == null) {
            throw new IllegalArgumentException("no version to convert with");
        }
        if (inForce == null) {
            if (next.anchorNs() <= t) {
                throw new IllegalArgumentException("version " + next.number() + " is anchored at or before " + t);
            }
            return extrapolated(next, t, truncated || next.number() > 1);
        }
        return next == null ? extrapolated(inForce, t, false) : between(inForce, next, t);
    }

    /** One version's answer for t: its bounds carried there; {@code truncated} as the record says. */
    private static HistoricConversion extrapolated(FactorVersion v, long t, boolean truncated) {
        return extrapolated(v, t, Basis.EXTRAPOLATED, truncated);
    }

    private static HistoricConversion extrapolated(FactorVersion v, long t, Basis basis, boolean truncated) {
        Conversion c = Conversion.of(v.factor(), t);
        return new HistoricConversion(t, c.referenceNs(), c.lowerNs(), c.upperNs(), v, null, basis, truncated);
    }

    /**
     * The answer for t from the versions anchored on both sides of it, {@code before.anchorNs() <= t <
     * after.anchorNs()}; where the two have different references, the one anchored nearer t alone (the earlier on a
     * tie): the versions of one emission are anchored at the same time of their component, so every node's times
     * change reference at the same moment, midway between the two emissions. A reference's own version is the
     * exception: its identity is published once, not at every emission, so it holds up to the emission that gave
     * the node another reference. Where the later rests on a restart of the links after the earlier's anchor (a
     * clock step between them), the one on t's side of the restart alone.
     */
    private static HistoricConversion between(FactorVersion before, FactorVersion after, long t) {
        long a = before.anchorNs();
        long b = after.anchorNs();
        if (!(a <= t && t < b)) {
            throw new IllegalArgumentException("t = " + t + " is not in [" + a + ", " + b + ")");
        }
        if (!before.reference().equals(after.reference())) {
            // the nearer one: every node of a component switches midway between the same two emissions
            return extrapolated(before.own() || t - a <= b - t ? before : after, t, false);
        }
        if (after.steadyFromNs() > a) {
            // a link restarted between the anchors: each version holds on its own side of the restart only
            return extrapolated(t >= after.steadyFromNs() ? after : before, t, Basis.CONTRADICTED, false);
        }
        Factor f = before.factor();
        Factor g = after.factor();
        Conversion fromBefore = Conversion.of(f, t);
        Conversion fromAfter = Conversion.of(g, t);
        BigDecimal atA = Conversion.of(f, a).referenceNs();
        BigDecimal atB = Conversion.of(g, b).referenceNs();
        BigDecimal p = BigDecimal.valueOf(t - a);
        BigDecimal q = BigDecimal.valueOf(b - t);
        BigDecimal span = BigDecimal.valueOf(b).subtract(BigDecimal.valueOf(a));
        BigDecimal slack = chordSlack(f, g, p, q, span);
        Long lower = max(fromBefore.lowerNs(), fromAfter.lowerNs());
        Long upper = min(fromBefore.upperNs(), fromAfter.upperNs());
        if (f.downPs() != LinkEstimate.UNBOUNDED
                && g.downPs() != LinkEstimate.UNBOUNDED) {
            BigDecimal chord = q.multiply(atA.subtract(picos(f.downPs()))).add(p.multiply(atB.subtract(
                    picos(g.downPs())))).subtract(slack);
            lower = max(lower, chord.divide(span, 0, RoundingMode.FLOOR).longValueExact());
        }
        if (f.upPs() != LinkEstimate.UNBOUNDED
                && g.upPs() != LinkEstimate.UNBOUNDED) {
            BigDecimal chord = q.multiply(atA.add(picos(f.upPs()))).add(p.multiply(atB.add(picos(g.upPs()))))
                    .add(slack);
            upper = min(upper, chord.divide(span, 0, RoundingMode.CEILING).longValueExact());
        }
        if (lower != null && upper != null && lower > upper) {
            return extrapolated(before, t, Basis.CONTRADICTED, false);
        }
        BigDecimal estimate = q.multiply(atA).add(p.multiply(atB)).divide(span, ESTIMATE_SCALE,
                RoundingMode.HALF_EVEN);
        if (lower != null && estimate.compareTo(BigDecimal.valueOf(lower)) < 0) {
            estimate = BigDecimal.valueOf(lower);
        }
        if (upper != null && estimate.compareTo(BigDecimal.valueOf(upper)) > 0) {
            estimate = BigDecimal.valueOf(upper);
        }
        return new HistoricConversion(t, estimate, lower, upper, before, after, Basis.INTERPOLATED, false);
    }

    /**
     * ε(t)·(b − a) for the chord between anchors a and b, p = t − a, q = b − t: ρ′·p·q·(b − a)/2 under the clock
     * model (its second divided differences are at most ρ′/2), exact as the curvature is a binary fraction. With
     * frequency steps adding up to at most κ within any τ, at most κ((b − a)/τ + 1) of them lie between the anchors,
     * each moving a second divided difference by at most κ/(b − a): ρ′/2 + κ/τ + κ/(b − a) in all, within
     * c + κ/(b − a) for the factors' curvature c = ρ′ + κ/τ (docs/LINK-CORE.md, "Frequency steps").
     */
    private static BigDecimal chordSlack(Factor f, Factor g, BigDecimal p, BigDecimal q, BigDecimal span) {
        BigDecimal pq = p.multiply(q);
        BigDecimal c = new BigDecimal(Math.max(f.curvature(), g.curvature()));
        double step = Math.max(f.step(), g.step());
        if (step == 0) {
            return c.multiply(pq).multiply(span).divide(TWO);
        }
        return c.multiply(pq).multiply(span).add(new BigDecimal(step).multiply(pq));
    }

    private static BigDecimal picos(long ps) {
        return BigDecimal.valueOf(ps, 3);
    }

    private static Long max(Long x, Long y) {
        return x == null ? y : y == null ? x : Long.valueOf(Math.max(x, y));
    }

    private static Long min(Long x, Long y) {
        return x == null ? y : y == null ? x : Long.valueOf(Math.min(x, y));
    }

    /** The estimate rounded to the nearest nanosecond, ties toward positive infinity (as {@link Conversion}). */
    public long nearestNs() {
        return referenceNs.add(HALF).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** Whether both ends are known. */
    public boolean bounded() {
        return lowerNs != null && upperNs != null;
    }

    /** How far t lies from the data behind the answer: from the nearest anchor of the versions it used, ns. */
    public long fromDataNs() {
        long d = Math.abs(localNs - version.anchorNs());
        return next == null ? d : Math.min(d, Math.abs(next.anchorNs() - localNs));
    }
}
