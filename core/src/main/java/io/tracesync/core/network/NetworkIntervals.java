package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.core.numeric.DoubleDoubleArithmetic;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Guaranteed intervals of every node of one component against its reference from every usable link, at one time,
 * and the network estimate inside them.
 *
 * <p><b>The time.</b> The component is evaluated at T, a local time of its reference r (by default the newest
 * latest time of its links, placed on r's clock by the tree factors). Node v is evaluated at its local time
 * x_v = F_v⁻¹(T) rounded to the nanosecond, F_v its spanning-tree factor, and T_v = F_v(x_v); the unknown is
 * z_v = R_v(x_v) − T_v, where R_v(x) is the reference's true time when v reads x (z_r = 0). Nothing below needs
 * x_v to be the true image of T: the evaluation points only make the constraints tight.
 *
 * <p><b>Constraints.</b> For clocks that are linear, R_v has a constant slope κ_v. A link a→b with true relation
 * x_b = f(x_a), slopes in [α_min, α_max], gives κ_a = κ_b·f′, so λ = ln κ obeys λ_a − λ_b ∈ [ln α_min, ln α_max];
 * with λ_r = 0, shortest paths bound every κ_v ([Jabbarifar 2013, Eq. 3.13]'s slope range, composed over every
 * path). At x_a the link's corridor gives f(x_a) ∈ [C(x_a) − D, C(x_a) + U] (Poirier's envelopes [Poirier 2010,
 * §3.1], {@link LinkEstimate#upAtPs}), and between the instants at which a reads x_a and b reads x_b the
 * reference advances κ_b·(f(x_a) − x_b), so z_a − z_b = κ_b·(f(x_a) − x_b) + T_b − T_a: one interval per link,
 * a system of difference constraints ({@link DifferenceConstraints}), rounded outward to the picosecond. Its
 * shortest paths are the tightest intervals these link intervals imply; the spanning tree's path is one path, so
 * they are never wider than the tree's, which the same system restricted to the tree's links gives.
 *
 * <p><b>Estimate.</b> The offsets z by weighted least squares over every link's own estimate, mapped as its
 * interval is and kept inside it ({@link LeastSquaresOffsets}), each kept inside its own interval; the slopes likewise over every link's
 * log-slope range, each kept inside [κ_min, κ_max] (the tree method keeps the tree factor's slope); the bounds
 * grow away from x_v at the rates the slope range leaves, κ_max − slope and slope − κ_min ({@link Factor}).
 *
 * <p><b>Inconsistency.</b> A negative cycle proves some link's interval wrong (a clock step, a wrong match, a
 * non-linear stretch). Of the cycle's links, the one whose interval the least-squares estimate violates most,
 * relative to the interval's width, is excluded, and the system solved again until it is consistent: the
 * estimate rests on every link, so a wrong link stands out against the others around it. Excluded links are
 * reported; a node no longer connected to its reference by usable links has no bound.
 */
public final class NetworkIntervals {

    /** A node's units against the reference's: slopes lie within a factor 1 ± 10^-3 of 1. */
    private static final double UNITS = 1 + 1e-3;
    /** Log-slopes in units of 10^-15: a link's weight is at most 10^15 (see {@link #SLOPE_LIMIT}). */
    static final double LOG_UNIT = 1e15;
    /**
     * Two clocks counting the same unit run at rates within a factor e of each other (real ones within 10^-3):
     * slope ranges are cut to [1/e, e], which keeps every log-slope weight and potential far from overflowing; a
     * link whose range lies wholly outside constrains nothing.
     */
    static final double SLOPE_LIMIT = Math.E;
    /** The least-squares fit of log-slopes in units of 10^-12, whose 0.01 tolerance is far below any slope range. */
    static final double SLOPE_FIT_UNIT = 1e12;
    static final double RELATIVE_MARGIN = 0x1p-48;
    private static final int MAX_EXCLUSIONS = 64;
    /** Link intervals wider than this (ps, about 12 days) are left out, so that no sum of weights overflows. */
    static final double WEIGHT_LIMIT = 0x1p50;
    /** The slack of a constraint no search reaches: it bounds nothing. */
    static final long UNBOUNDED_SLACK = LinkEstimate.UNBOUNDED;
    /** Potentials beyond this (ps) are left at 0: reduced weights stay far inside the long range. */
    static final double POTENTIAL_LIMIT = 0x1p52;

    /** How the least-squares fit weights a link of interval width w (ps). */
    public enum Weighting {
        /** 1 / the width of the link's interval. */
        INVERSE_WIDTH,
        /** 1 / its square, the weight of a measurement whose error is uniform over the interval. */
        INVERSE_WIDTH_SQUARED,
        /** 1 / the link's slope accuracy α_max − α_min, the spanning tree's weight. */
        INVERSE_SLOPE_ACCURACY;

        /** The weighting the evaluation on simulated clusters chose (docs/ACCURACY.md). */
        public static final Weighting DEFAULT = INVERSE_WIDTH;

        double of(double widthPs, double slopeAccuracy) {
            double w = Math.max(widthPs, 1);
            return switch (this) {
                case INVERSE_WIDTH -> 1 / w;
                case INVERSE_WIDTH_SQUARED -> 1 / (w * w);
                case INVERSE_SLOPE_ACCURACY -> 1 / Math.max(slopeAccuracy, 1e-15);
            };
        }
    }

    /**
     * One component: node 0 is the reference; {@code treeMaps[v]} node v's spanning-tree factor (node 0: the
     * identity); per link its ends, its estimate and whether it is a tree link; and what the systems read of the
     * links, copied into flat arrays. The caller may keep a component between evaluations and bring it up to date
     * in place ({@link #setLink}, the tree maps and flags): it is then what a new one of the same state would be.
     */
    public static final class Component {

        private final String[] names;
        private final ClockMap[] treeMaps;
        private final int[] linkA;
        private final int[] linkB;
        private final LinkEstimate[] links;
        private final boolean[] inTree;
        private final LinkTable table;
        /** The arcs of the all-links systems, built when first needed; null after the places moved. */
        private DifferenceConstraints.Arcs arcs;
        /** Per node the fewest links from the reference, counted when first needed; null after the places moved. */
        private int[] hops;
        /** Counts the changes made in place; the result last kept, of which method and weighting, at which count. */
        private long version;
        private Result kept;
        private NetworkMethod keptMethod;
        private Weighting keptWeighting;
        private long keptVersion;

        public Component(String[] names, ClockMap[] treeMaps, int[] linkA, int[] linkB, LinkEstimate[] links,
                boolean[] inTree) {
            this.names = names;
            this.treeMaps = treeMaps;
            this.linkA = linkA;
            this.linkB = linkB;
            this.links = links;
            this.inTree = inTree;
            this.table = new LinkTable(links);
        }

        public String[] names() {
            return names;
        }

        public ClockMap[] treeMaps() {
            return treeMaps;
        }

        public int[] linkA() {
            return linkA;
        }

        public int[] linkB() {
            return linkB;
        }

        public LinkEstimate[] links() {
            return links;
        }

        public boolean[] inTree() {
            return inTree;
        }

        LinkTable table() {
            return table;
        }

        /** Link l's new estimate. */
        void setLink(int l, LinkEstimate e) {
            links[l] = e;
            table.set(l, e);
            version++;
        }

        /** The links' ends moved to other places ({@link #linkA}, {@link #linkB} rewritten). */
        void placesChanged() {
            arcs = null;
            hops = null;
            version++;
        }

        /** A tree factor or tree flag was changed in place. */
        void changed() {
            version++;
        }

        /**
         * The result of {@link #compute} at the component's default time by this method and weighting, kept from
         * the last such evaluation if nothing changed since, else null: the answer would be the same.
         */
        Result kept(NetworkMethod method, Weighting weighting) {
            return kept != null && keptVersion == version && keptMethod == method && keptWeighting == weighting
                    ? kept : null;
        }

        /** The result last kept, whatever changed since; null if none. */
        Result lastKept() {
            return kept;
        }

        /** Keeps the result of an evaluation at the default time (see {@link #kept}). */
        void keep(NetworkMethod method, Weighting weighting, Result result) {
            kept = result;
            keptMethod = method;
            keptWeighting = weighting;
            keptVersion = version;
        }

        /** Two arcs per link (see {@link DifferenceConstraints.Arcs#ofLinks}), kept while the places stay. */
        DifferenceConstraints.Arcs arcs() {
            if (arcs == null) {
                arcs = DifferenceConstraints.Arcs.ofLinks(names.length, linkA, linkB);
            }
            return arcs;
        }

        /** Per node the fewest links from the reference (node 0), breadth first over the arcs; −1: none. */
        int[] hops() {
            if (hops == null) {
                DifferenceConstraints.Arcs g = arcs();
                hops = new int[names.length];
                Arrays.fill(hops, -1);
                int[] queue = new int[names.length];
                int tail = 0;
                hops[0] = 0;
                queue[tail++] = 0;
                for (int head = 0; head < tail; head++) {
                    int u = queue[head];
                    for (int k = g.outStart[u]; k < g.outStart[u + 1]; k++) {
                        if (hops[g.outTo[k]] < 0) {
                            hops[g.outTo[k]] = hops[u] + 1;
                            queue[tail++] = g.outTo[k];
                        }
                    }
                }
            }
            return hops;
        }
    }

    /**
     * The answer for a component: per node its factor (node 0 the reference), and the links left out; from every
     * link, per link l of the component how far each of its four constraints may tighten before any node's interval
     * moves ({@code slack[4l]}: its upper offset bound, {@code 4l + 1} its lower, in ps of the reference's clock;
     * {@code 4l + 2}, {@code 4l + 3} its slope range's ends, in 10^-15 of the log-slope; 0 for a link that bounds
     * nothing yet, so that any news of it counts), null along the tree.
     */
    public record Result(long evaluatedAtNs, AnchoredFactor[] factors, List<LinkKey> excluded, int iterations,
            long[] slack) {
    }

    private NetworkIntervals() {
    }

    /**
     * Evaluates a component at T = {@code atNs}, or at its default time when {@code atNs} is null. The answer
     * depends on the component alone (the least-squares fits start from the tree factors), so a restarted
     * stream and an offline run give the same factors bit for bit.
     */
    public static Result compute(Component c, NetworkMethod method, Weighting weighting, Long atNs) {
        int n = c.names().length;
        int m = c.links().length;
        LinkTable table = c.table();
        long t = atNs != null ? atNs : defaultTime(c, table);
        long[] x = new long[n];
        DoubleDouble[] tv = new DoubleDouble[n];
        boolean[] placed = new boolean[n];
        for (int v = 0; v < n; v++) {
            try {
                x[v] = v == 0 ? t : c.treeMaps()[v].inverse().apply(t).roundToLong();
                tv[v] = v == 0 ? DoubleDouble.of(t) : c.treeMaps()[v].apply(x[v]);
                placed[v] = true;
            } catch (ArithmeticException e) {
                tv[v] = DoubleDouble.ZERO; // beyond the clock's range: no constraint reaches it
            }
        }
        boolean[] excluded = new boolean[m];
        for (int l = 0; l < m; l++) {
            excluded[l] = !table.bounded[l] || !placed[c.linkA()[l]] || !placed[c.linkB()[l]]
                    || !(table.minSlope[l] <= SLOPE_LIMIT && table.maxSlope[l] >= 1 / SLOPE_LIMIT);
        }
        long[] logSlopes = new long[n];
        for (int v = 1; v < n; v++) {
            double ln = Math.log(c.treeMaps()[v].slope().hi());
            logSlopes[v] = Math.abs(ln) <= 1 ? Math.round(ln * LOG_UNIT) : 0; // a potential only orders the search
        }
        try {
            return solveAndExclude(c, table, method, weighting, t, x, tv, excluded, logSlopes);
        } catch (IllegalStateException e) {
            // distances beyond the long range (links of absurd widths): no bound rather than a wrong one
            Arrays.fill(excluded, true);
            return solveAndExclude(c, table, method, weighting, t, x, tv, excluded, logSlopes);
        }
    }

    private static Result solveAndExclude(Component c, LinkTable table, NetworkMethod method, Weighting weighting,
            long t, long[] x, DoubleDouble[] tv, boolean[] excluded, long[] logSlopes) {
        int m = c.links().length;
        boolean[] treeOnly = new boolean[m];
        List<LinkKey> dropped = new ArrayList<>();
        for (int round = 0; ; round++) {
            for (int l = 0; l < m; l++) {
                treeOnly[l] = excluded[l] || !c.inTree()[l];
            }
            IntervalSolution tree = IntervalSolution.solve(c, table, x, tv, treeOnly, null, logSlopes);
            if (method == NetworkMethod.TREE) {
                return new Result(t, factors(c, method, x, tv, tree, tree), List.of(), 0, null);
            }
            IntervalSolution all = IntervalSolution.solve(c, table, x, tv, excluded, weighting, logSlopes);
            if (all.cycleLink < 0) {
                return new Result(t, factors(c, method, x, tv, all, tree), List.copyOf(dropped), all.iterations,
                        all.slack);
            }
            excluded[all.cycleLink] = true;
            dropped.add(c.links()[all.cycleLink].key());
            if (round == MAX_EXCLUSIONS) {
                Arrays.fill(excluded, true);
            }
        }
    }

    /** The newest latest time of the component's links, on the reference's clock by the tree factors. */
    static long defaultTime(Component c) {
        return defaultTime(c, c.table());
    }

    private static long defaultTime(Component c, LinkTable table) {
        // a tree factor increases: each node's newest link time is the only one of its links that can be the newest
        int n = c.names().length;
        long[] newest = new long[n];
        boolean[] has = new boolean[n];
        // links to a clock's stand-in (Backbone#link: ties of a network solved in regions) carry earlier answers,
        // not data, each anchored where the last answer was: taken as data they would push the time on by that
        // answer's error at every exchange. They set the time only where nothing else does.
        boolean data = false;
        for (int l = 0; l < c.links().length && !data; l++) {
            data = table.estimated[l] && !Backbone.isHub(c.links()[l].key().b());
        }
        for (int l = 0; l < c.links().length; l++) {
            if (table.estimated[l] && !(data && Backbone.isHub(c.links()[l].key().b()))) {
                int a = c.linkA()[l];
                newest[a] = has[a] ? Math.max(newest[a], table.latest[l]) : table.latest[l];
                has[a] = true;
            }
        }
        double[] best = {Double.NEGATIVE_INFINITY, 0};
        double[] v = new double[2];
        for (int a = 0; a < n; a++) {
            if (has[a]) {
                ClockMap f = c.treeMaps()[a];
                DoubleDoubleArithmetic.applyMinus(f.slope().hi(), f.slope().lo(), f.offset().hi(), f.offset().lo(),
                        newest[a], 0, v, 0);
                if (v[0] > best[0] || (v[0] == best[0] && v[1] > best[1])) {
                    best[0] = v[0];
                    best[1] = v[1];
                }
            }
        }
        if (best[0] == Double.NEGATIVE_INFINITY) {
            return 0;
        }
        try {
            return DoubleDouble.of(best[0], best[1]).roundToLong();
        } catch (ArithmeticException e) {
            return 0; // a tree factor that takes the links' times out of range places nothing
        }
    }

    private static AnchoredFactor[] factors(Component c, NetworkMethod method, long[] x, DoubleDouble[] tv,
            IntervalSolution all, IntervalSolution tree) {
        int n = x.length;
        String ref = c.names()[0];
        AnchoredFactor[] out = new AnchoredFactor[n];
        double curvature = curvature(c.table().curvature);
        double step = curvature(c.table().step);
        long excursion = excursion(c.table().excursion);
        out[0] = new AnchoredFactor(ref, ref, new Factor(ClockMap.IDENTITY, 0, 0, x[0], 0, 0), x[0], 0, 0, method);
        long[] held = excursion == 0 ? null : heldExcursions(c, excursion);
        IntervalSolution chosen = method == NetworkMethod.TREE ? tree : all;
        for (int v = 1; v < n; v++) {
            ClockMap f = c.treeMaps()[v];
            long up = chosen.up[v];
            long down = chosen.down[v];
            double kLo = chosen.slopeLow[v];
            double kHi = chosen.slopeHigh[v];
            DoubleDouble slope;
            if (!Double.isFinite(kHi)) {
                slope = f.slope();
            } else if (chosen.slopeEstimate != null) {
                slope = DoubleDouble.of(Math.max(kLo, Math.min(kHi, chosen.slopeEstimate[v])));
            } else {
                boolean inside = f.slope().hi() >= kLo && f.slope().hi() <= kHi;
                slope = inside ? f.slope() : DoubleDouble.of((kLo + kHi) / 2);
            }
            long shift = method == NetworkMethod.TREE ? 0 : chosen.shiftPs(v);
            ClockMap map = f;
            long margin = 0;
            if (shift != 0 || slope != f.slope()) {
                map = ClockMap.through(x[v], tv[v].add(DoubleDouble.of(shift / 1000.0)), slope);
                margin = 1; // the new map's value at x_v is within far less than 1 ps of tv + shift
            }
            boolean bounded = up != LinkEstimate.UNBOUNDED && down != LinkEstimate.UNBOUNDED && Double.isFinite(kHi);
            // the links' curves combined, then the node's excursion from its reference's: at most Φ
            long widen = margin + excursion;
            Factor factor = new Factor(map, bounded ? Bounds.add(up - shift, widen) : LinkEstimate.UNBOUNDED,
                    bounded ? Bounds.add(down + shift, widen) : LinkEstimate.UNBOUNDED, x[v],
                    bounded ? rateUp(kHi, slope, 1) : 0, bounded ? rateUp(kLo, slope, -1) : 0,
                    bounded ? curvature : 0, bounded ? step : 0);
            out[v] = new AnchoredFactor(c.names()[v], ref, factor, x[0],
                    bounded && tree.up[v] != LinkEstimate.UNBOUNDED ? Bounds.add(tree.up[v] - shift, widen)
                            : LinkEstimate.UNBOUNDED,
                    bounded && tree.down[v] != LinkEstimate.UNBOUNDED ? Bounds.add(tree.down[v] + shift, widen)
                            : LinkEstimate.UNBOUNDED,
                    method, bounded && held != null ? held[v] : 0);
        }
        return out;
    }

    /**
     * Per node, the offset excursions its bounds hold on each side as far as counted ({@link AnchoredFactor}): its own
     * {@code excursion} and, per link of any path from the reference, the least Φ of a link — the fewest links,
     * breadth first over every link of the component, which no method's path undercuts. A link's curve interval
     * comes from its pairs moved outward by Φ, so where its clocks' relation runs near their smooth one it lies about
     * Φ inside each end (docs/LINK-CORE.md, "Offset excursions"); around the cycle of links that gives a node's
     * interval the relations cancel and those margins add up.
     */
    private static long[] heldExcursions(Component c, long excursion) {
        long least = Long.MAX_VALUE;
        for (long e : c.table().excursion) {
            least = Math.min(least, e);
        }
        int[] hops = c.hops();
        int n = hops.length;
        long[] held = new long[n];
        for (int v = 1; v < n; v++) {
            if (hops[v] > 0) {
                long links = least > LinkEstimate.UNBOUNDED / hops[v] ? LinkEstimate.UNBOUNDED : hops[v] * least;
                held[v] = Bounds.add(excursion, links);
            }
        }
        return held;
    }

    /** The largest of the links' offset excursions, ps: how far any node's relation departs from its curve. */
    private static long excursion(long[] excursions) {
        long most = 0;
        for (long e : excursions) {
            most = Math.max(most, e);
        }
        return most;
    }

    /**
     * How far any node's relation to its reference may turn per local ns: the clock model's ρ′ bounds the change of
     * any two clocks' relative frequency (docs/LINK-CORE.md, "Clocks that bend"), taken from the links (the largest,
     * with 10^-3 for the reference's units against the node's: slopes lie within a factor 1 ± 10^-3 of 1); the
     * frequency steps κ likewise.
     */
    private static double curvature(double[] links) {
        double rho = 0;
        for (double c : links) {
            rho = Math.max(rho, c);
        }
        return rho == 0 ? 0 : Math.nextUp(rho * UNITS);
    }

    /**
     * The clock model's ρ′ back from a factor's curvature ({@link #curvature}): a relation between two clocks turns
     * by at most ρ′ per ns, so a link made of a factor ({@link Backbone#link}) has this curvature, not the
     * factor's own — which, taken again into a network, would grow by 10^-3 with every pass.
     */
    static double modelCurvature(double factorCurvature) {
        return factorCurvature == 0 ? 0 : Math.nextUp(factorCurvature / UNITS);
    }

    /**
     * An upper bound of sign·(limit − slope), ≥ 0: the difference of the high parts is exact where they are within
     * a factor 2 (Sterbenz), and one more rounding for the low part is covered by two steps up.
     */
    private static double rateUp(double limit, DoubleDouble slope, int sign) {
        double r = sign * ((limit - slope.hi()) - slope.lo());
        return Math.max(0, Math.nextUp(Math.nextUp(r)));
    }

}
