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
    private static final double SLOPE_FIT_UNIT = 1e12;
    private static final double RELATIVE_MARGIN = 0x1p-48;
    private static final int MAX_EXCLUSIONS = 64;
    /** Link intervals wider than this (ps, about 12 days) are left out, so that no sum of weights overflows. */
    private static final double WEIGHT_LIMIT = 0x1p50;
    /** The slack of a constraint no search reaches: it bounds nothing. */
    static final long UNBOUNDED_SLACK = LinkEstimate.UNBOUNDED;
    /** Potentials beyond this (ps) are left at 0: reduced weights stay far inside the long range. */
    private static final double POTENTIAL_LIMIT = 0x1p52;

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
     * What the systems read of every link, copied into flat arrays: the estimates are objects spread over the heap,
     * and every system passes over all links several times.
     */
    static final class LinkTable {

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
            up[l] = e.upPs();
            down[l] = e.downPs();
            curvature[l] = e.curvature();
            step[l] = e.step();
            slopeHi[l] = estimated[l] ? e.aToB().slope().hi() : 0;
            slopeLo[l] = estimated[l] ? e.aToB().slope().lo() : 0;
            offsetHi[l] = estimated[l] ? e.aToB().offset().hi() : 0;
            offsetLo[l] = estimated[l] ? e.aToB().offset().lo() : 0;
            if (curvature[l] == 0) {
                logUp[l] = Solution.logUpWeight(maxSlope[l]);
                logDown[l] = Solution.logDownWeight(minSlope[l]);
            }
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
            Solution tree = Solution.solve(c, table, x, tv, treeOnly, null, logSlopes);
            if (method == NetworkMethod.TREE) {
                return new Result(t, factors(c, method, x, tv, tree, tree), List.of(), 0, null);
            }
            Solution all = Solution.solve(c, table, x, tv, excluded, weighting, logSlopes);
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
            Solution all, Solution tree) {
        int n = x.length;
        String ref = c.names()[0];
        AnchoredFactor[] out = new AnchoredFactor[n];
        double curvature = curvature(c.table().curvature);
        double step = curvature(c.table().step);
        out[0] = new AnchoredFactor(ref, ref, new Factor(ClockMap.IDENTITY, 0, 0, x[0], 0, 0), x[0], 0, 0, method);
        Solution chosen = method == NetworkMethod.TREE ? tree : all;
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
            Factor factor = new Factor(map, bounded ? Bounds.add(up - shift, margin) : LinkEstimate.UNBOUNDED,
                    bounded ? Bounds.add(down + shift, margin) : LinkEstimate.UNBOUNDED, x[v],
                    bounded ? rateUp(kHi, slope, 1) : 0, bounded ? rateUp(kLo, slope, -1) : 0,
                    bounded ? curvature : 0, bounded ? step : 0);
            out[v] = new AnchoredFactor(c.names()[v], ref, factor, x[0],
                    bounded && tree.up[v] != LinkEstimate.UNBOUNDED ? Bounds.add(tree.up[v] - shift, margin)
                            : LinkEstimate.UNBOUNDED,
                    bounded && tree.down[v] != LinkEstimate.UNBOUNDED ? Bounds.add(tree.down[v] + shift, margin)
                            : LinkEstimate.UNBOUNDED,
                    method);
        }
        return out;
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

    /**
     * The arcs of one system, two per link: over every link on the arcs the component keeps (their weights set per
     * link, the others left out), or for the tree's n − 1 links added one by one.
     */
    private static final class LinkArcs {

        private final Component component;
        private final long[] weights;
        private final DifferenceConstraints added;
        private final int[] arcLink;

        LinkArcs(Component component, int n, int links, boolean onKeptArcs) {
            this.component = component;
            if (onKeptArcs) {
                weights = new long[2 * component.links().length];
                Arrays.fill(weights, LinkEstimate.UNBOUNDED);
                added = null;
                arcLink = null;
            } else {
                weights = null;
                added = new DifferenceConstraints(n, 2 * links);
                arcLink = new int[2 * links];
            }
        }

        /** Link l from a to b: x_a − x_b ≤ {@code toA}, x_b − x_a ≤ {@code toB}. */
        void link(int l, int a, int b, long toA, long toB) {
            if (weights != null) {
                weights[2 * l] = toA;
                weights[2 * l + 1] = toB;
            } else {
                arcLink[added.add(b, a, toA)] = l;
                arcLink[added.add(a, b, toB)] = l;
            }
        }

        DifferenceConstraints system() {
            return weights != null ? new DifferenceConstraints(component.arcs(), weights) : added;
        }

        /** The link an arc of {@link #system} belongs to. */
        int linkOf(int arc) {
            return weights != null ? arc >> 1 : arcLink[arc];
        }
    }

    /** The two systems of one component (log-slopes, then offsets) over the links not excluded, solved. */
    private static final class Solution {

        long[] up;
        long[] down;
        /** Per link l, the slack of its four arcs (see {@link Result#slack}); null without a least-squares fit. */
        long[] slack;
        double[] slopeLow;
        double[] slopeHigh;
        double[] estimate;
        double[] slopeEstimate;
        int cycleLink = -1;
        int iterations;

        /** The estimate's shift of node v in ps, kept inside [−down, up]. */
        long shiftPs(int v) {
            if (estimate == null || up[v] == LinkEstimate.UNBOUNDED || down[v] == LinkEstimate.UNBOUNDED) {
                return 0;
            }
            return Math.max(-down[v], Math.min(up[v], Math.round(estimate[v])));
        }

        /**
         * Solves both systems; with a {@code weighting}, also the least-squares estimate. On a negative cycle,
         * {@code cycleLink} names the link to exclude.
         */
        static Solution solve(Component c, LinkTable table, long[] x, DoubleDouble[] tv, boolean[] excluded,
                Weighting weighting, long[] logSlopes) {
            int n = x.length;
            int m = c.links().length;
            Solution s = new Solution();
            int[] rows = taking(excluded); // the spanning tree's: n − 1 of m
            boolean onLinks = weighting != null;
            LinkArcs logs = new LinkArcs(c, n, rows.length, onLinks);
            long[] logUpper = new long[m];
            long[] logLower = new long[m];
            for (int l : rows) {
                int a = c.linkA()[l];
                int b = c.linkB()[l];
                if (table.curvature[l] == 0) {
                    logUpper[l] = table.logUp[l];
                    logLower[l] = table.logDown[l];
                } else {
                    // under the clock model the slope turns by up to ρ′ per ns between the link's latest time and x_a
                    double turn = Math.nextUp(table.curvature[l] * Math.abs((double) x[a] - table.latest[l])
                            * (1 + 1e-9));
                    logUpper[l] = logUpWeight(turn == 0 ? table.maxSlope[l] : Math.nextUp(table.maxSlope[l] + turn));
                    logLower[l] = logDownWeight(turn == 0 ? table.minSlope[l]
                            : Math.nextDown(table.minSlope[l] - turn));
                }
                logs.link(l, a, b, logUpper[l], logLower[l]);
            }
            DifferenceConstraints logSystem = logs.system();
            DifferenceConstraints.Result high = logSystem.distances(0, true, null, logSlopes);
            DifferenceConstraints.Result low = high.consistent() ? logSystem.distances(0, false, null, logSlopes)
                    : high;
            if (!low.consistent()) {
                s.cycleLink = worstOfCycle(c, low.negativeCycle(), logs, logResiduals(c, table, excluded));
                return s;
            }
            s.slopeHigh = new double[n];
            s.slopeLow = new double[n];
            for (int v = 0; v < n; v++) {
                boolean known = high.distance()[v] != LinkEstimate.UNBOUNDED
                        && low.distance()[v] != LinkEstimate.UNBOUNDED;
                s.slopeHigh[v] = known ? Math.nextUp(Math.nextUp(Math.exp(high.distance()[v] / LOG_UNIT)))
                        : Double.POSITIVE_INFINITY;
                s.slopeLow[v] = known ? Math.nextDown(Math.nextDown(Math.exp(-low.distance()[v] / LOG_UNIT))) : 0;
            }
            if (weighting != null) {
                s.slopeEstimate = fitSlopes(c, table, excluded, logSlopes, s.slopeHigh);
            }
            LinkArcs offsetArcs = new LinkArcs(c, n, rows.length, onLinks);
            double[] mid = new double[m];
            double[] weight = new double[m];
            long[] lower = new long[m];
            long[] upper = new long[m];
            boolean[] bounds = new boolean[m];
            double[] scratch = new double[2];
            double[] tvHi = new double[n];
            double[] tvLo = new double[n];
            for (int v = 0; v < n; v++) {
                tvHi[v] = tv[v].hi();
                tvLo[v] = tv[v].lo();
            }
            for (int l : rows) {
                int a = c.linkA()[l];
                int b = c.linkB()[l];
                if (!Double.isFinite(s.slopeHigh[b])) {
                    continue;
                }
                long u = table.upAt(l, x[a]);
                long d = table.downAt(l, x[a]);
                if (u == LinkEstimate.UNBOUNDED || d == LinkEstimate.UNBOUNDED) {
                    continue;
                }
                double cPs = DoubleDoubleArithmetic.applyMinus(table.slopeHi[l], table.slopeLo[l],
                        table.offsetHi[l], table.offsetLo[l], x[a], x[b], scratch, 0) * 1000;
                DoubleDoubleArithmetic.add(tvHi[b], tvLo[b], -tvHi[a], -tvLo[a], scratch, 0);
                double dPs = (scratch[0] + scratch[1]) * 1000;
                double top = cPs + u;
                double bottom = cPs - d;
                double w = Math.max(top * s.slopeLow[b], top * s.slopeHigh[b]) + dPs;
                double v = Math.min(bottom * s.slopeLow[b], bottom * s.slopeHigh[b]) + dPs;
                double margin = 1 + (Math.abs(cPs) + u + d + Math.abs(dPs)) * s.slopeHigh[b] * RELATIVE_MARGIN;
                if (!(Math.abs(w) + margin < WEIGHT_LIMIT && Math.abs(v) + margin < WEIGHT_LIMIT)) {
                    continue; // beyond any clock's range: this link constrains nothing usefully
                }
                upper[l] = (long) Math.ceil(w + margin);
                lower[l] = (long) Math.floor(v - margin);
                offsetArcs.link(l, a, b, upper[l], -lower[l]); // z_a − z_b ≤ upper, z_b − z_a ≤ −lower
                bounds[l] = true;
                // the link's own estimate, mapped as its interval is, kept inside the interval
                double point = cPs * ((s.slopeLow[b] + s.slopeHigh[b]) / 2) + dPs;
                mid[l] = Math.min(Math.max(point, lower[l]), upper[l]);
                weight[l] = weighting == null ? 0 : weighting.of(upper[l] - (double) lower[l], table.accuracy[l]);
            }
            DifferenceConstraints offsets = offsetArcs.system();
            double[] z = null;
            long[] potential = null;
            if (weighting != null) {
                // every link gives arcs both ways, so reaching from the reference is being connected to it
                boolean[] connected = offsets.reachable(0);
                z = new double[n]; // 0: the tree factors' offsets
                LeastSquaresOffsets fit = new LeastSquaresOffsets(n, c.linkA(), c.linkB(), mid, weight, m);
                fit.solve(z, connected);
                s.iterations = fit.iterations();
                s.estimate = z;
                potential = new long[n];
                for (int v = 1; v < n; v++) {
                    potential[v] = connected[v] && Math.abs(z[v]) <= POTENTIAL_LIMIT ? Math.round(z[v]) : 0;
                }
            }
            // the estimate satisfies nearly every link's interval: nearly every reduced weight is nonnegative
            DifferenceConstraints.Result fromRef = offsets.distances(0, true, null, potential);
            DifferenceConstraints.Result toRef = fromRef.consistent() ? offsets.distances(0, false, null, potential)
                    : fromRef;
            if (!toRef.consistent()) {
                double[] r = z != null ? offsetResiduals(c, z, mid, lower, upper, excluded)
                        : widths(lower, upper);
                s.cycleLink = worstOfCycle(c, toRef.negativeCycle(), offsetArcs, r);
                return s;
            }
            s.up = fromRef.distance();
            s.down = toRef.distance();
            if (onLinks) {
                s.slack = new long[4 * m];
                for (int l : rows) {
                    int a = c.linkA()[l];
                    int b = c.linkB()[l];
                    if (bounds[l]) {
                        s.slack[4 * l] = slack(s.up, s.down, b, a, upper[l]);
                        s.slack[4 * l + 1] = slack(s.up, s.down, a, b, -lower[l]);
                    }
                    s.slack[4 * l + 2] = slack(high.distance(), low.distance(), b, a, logUpper[l]);
                    s.slack[4 * l + 3] = slack(high.distance(), low.distance(), a, b, logLower[l]);
                }
            }
            return s;
        }

        /**
         * How much the weight w of the arc u → v (x_v − x_u ≤ w) can drop before any node's bound moves: the least
         * of its reduced weights in the search from the reference ({@code from}) and towards it ({@code to}),
         * dist(u) + w − dist(v) and w + dist'(v) − dist'(u), each ≥ 0 at the distances; {@link
         * LinkEstimate#UNBOUNDED} where neither search reaches the arc. Dropping it by at most that leaves every
         * distance as it is, so every node's interval (Patt-Shamir &amp; Rajsbaum 1994's shortest paths).
         */
        private static long slack(long[] from, long[] to, int u, int v, long w) {
            long r = UNBOUNDED_SLACK;
            if (from[u] != LinkEstimate.UNBOUNDED && from[v] != LinkEstimate.UNBOUNDED) {
                r = Math.min(r, Math.max(0, from[u] + w - from[v]));
            }
            if (to[u] != LinkEstimate.UNBOUNDED && to[v] != LinkEstimate.UNBOUNDED) {
                r = Math.min(r, Math.max(0, w + to[v] - to[u]));
            }
            return r;
        }

        /** The links not excluded, in order. */
        private static int[] taking(boolean[] excluded) {
            int count = 0;
            for (boolean e : excluded) {
                count += e ? 0 : 1;
            }
            int[] rows = new int[count];
            for (int l = 0, k = 0; l < excluded.length; l++) {
                if (!excluded[l]) {
                    rows[k++] = l;
                }
            }
            return rows;
        }

        /**
         * The slopes κ_v by weighted least squares over every link's log-slope range (its middle, weight 1 / its
         * width), started from the tree's: the loops average the slope errors out as they do the offsets'.
         */
        private static double[] fitSlopes(Component c, LinkTable table, boolean[] excluded, long[] logSlopes,
                double[] slopeHigh) {
            int n = logSlopes.length;
            int m = c.links().length;
            double[] target = new double[m];
            double[] weight = new double[m];
            for (int l = 0; l < m; l++) {
                if (!excluded[l]) {
                    double lo = Math.log(table.minSlope[l]) * SLOPE_FIT_UNIT;
                    double hi = Math.log(table.maxSlope[l]) * SLOPE_FIT_UNIT;
                    target[l] = (lo + hi) / 2;
                    weight[l] = 1 / Math.max(hi - lo, 1e-6);
                }
            }
            double[] lambda = new double[n];
            boolean[] connected = new boolean[n];
            for (int v = 0; v < n; v++) {
                lambda[v] = logSlopes[v] * (SLOPE_FIT_UNIT / LOG_UNIT);
                connected[v] = Double.isFinite(slopeHigh[v]);
            }
            new LeastSquaresOffsets(n, c.linkA(), c.linkB(), target, weight, m).solve(lambda, connected);
            double[] out = new double[n];
            for (int v = 0; v < n; v++) {
                out[v] = Math.exp(lambda[v] / SLOPE_FIT_UNIT);
            }
            return out;
        }

        /** The log system's weight x_a − x_b ≤ ln(max slope), the slope capped at {@code SLOPE_LIMIT}. */
        static long logUpWeight(double maxSlope) {
            return logUp(Math.log(Math.min(maxSlope, SLOPE_LIMIT)));
        }

        /** The log system's weight x_b − x_a ≤ −ln(min slope), the slope floored at 1 / {@code SLOPE_LIMIT}. */
        static long logDownWeight(double minSlope) {
            return logUp(-Math.log(Math.max(minSlope, 1 / SLOPE_LIMIT)));
        }

        /** ln α in LOG_UNIT, rounded up with a margin for Math.log's error (at most 1 ulp). */
        private static long logUp(double ln) {
            double v = ln * LOG_UNIT;
            return (long) Math.ceil(v + 2 + Math.abs(v) * RELATIVE_MARGIN);
        }

        /** Per link, how far the tree factors' log-slopes fall outside its range, relative to its width. */
        private static double[] logResiduals(Component c, LinkTable table, boolean[] excluded) {
            double[] r = new double[c.links().length];
            for (int l = 0; l < r.length; l++) {
                if (excluded[l]) {
                    continue;
                }
                double lo = Math.log(table.minSlope[l]);
                double hi = Math.log(table.maxSlope[l]);
                double est = Math.log(c.treeMaps()[c.linkA()[l]].slope().hi())
                        - Math.log(c.treeMaps()[c.linkB()[l]].slope().hi());
                r[l] = Math.abs(est - (lo + hi) / 2) / Math.max(hi - lo, Double.MIN_NORMAL);
            }
            return r;
        }

        /** Per link, how far the estimate's z_a − z_b lies from the point it aimed at, relative to its width. */
        private static double[] offsetResiduals(Component c, double[] z, double[] target, long[] lower,
                long[] upper, boolean[] excluded) {
            double[] r = new double[lower.length];
            for (int l = 0; l < r.length; l++) {
                if (!excluded[l]) {
                    double d = z[c.linkA()[l]] - z[c.linkB()[l]];
                    r[l] = Math.abs(d - target[l]) / Math.max(upper[l] - (double) lower[l], 1);
                }
            }
            return r;
        }

        private static double[] widths(long[] lower, long[] upper) {
            double[] r = new double[lower.length];
            for (int l = 0; l < r.length; l++) {
                r[l] = 1 / Math.max(upper[l] - (double) lower[l], 1);
            }
            return r;
        }

        /** The link of the cycle with the largest residual; of equal ones, the first in name order. */
        private static int worstOfCycle(Component c, int[] cycle, LinkArcs arcs, double[] residual) {
            int worst = -1;
            for (int arc : cycle) {
                int l = arcs.linkOf(arc);
                if (worst < 0 || residual[l] > residual[worst] || (residual[l] == residual[worst]
                        && c.links()[l].key().toString().compareTo(c.links()[worst].key().toString()) < 0)) {
                    worst = l;
                }
            }
            return worst;
        }
    }
}
