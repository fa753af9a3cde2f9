package io.tracesync.bench;

import io.tracesync.avro.Line;
import io.tracesync.avro.LinkSummary;
import io.tracesync.client.PublishedFactor;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import io.tracesync.sim.PiecewiseLinearClock;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationSink;
import io.tracesync.sim.Simulator;
import io.tracesync.streams.Settings;
import io.tracesync.streams.link.LinkSummaries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The summaries the application's link step emits for simulated links ({@link SummaryRate}'s cluster through
 * {@link LinkStep}), each with its commit, and the simulated clocks: templates from which a larger network's links
 * take their summary streams. {@link #onto} moves a template's summary onto another link at a later true time,
 * keeping its errors against that link's true relation: its estimate off the truth by as much, its slopes off the
 * true slope by as much, its bounds as wide. So a network of such links is as consistent as the templates were.
 */
final class LinkTemplates {

    /** One template link's summaries in the order emitted, with the index of each one's commit. */
    static final class Template {
        final CommitFeed.Link link;
        final List<LinkSummary> summaries = new ArrayList<>();
        private int[] commits = new int[8];

        Template(CommitFeed.Link link) {
            this.link = link;
        }

        private void add(int commit, LinkSummary s) {
            if (summaries.size() == commits.length) {
                commits = Arrays.copyOf(commits, commits.length * 2);
            }
            commits[summaries.size()] = commit;
            summaries.add(s);
        }

        int commit(int i) {
            return commits[i];
        }

        /** The first summary whose commit is at or after {@code commit}. */
        int firstFrom(int commit) {
            int lo = 0;
            int hi = summaries.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (commits[mid] < commit) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** The true slope of a template's relation is read over ± this much true time. */
    private static final long SLOPE_SPAN_NS = 1_000_000_000L;

    private final List<Template> templates = new ArrayList<>();
    private final PiecewiseLinearClock[] clocks;
    private final long commitNs;
    private final long startNs;

    private LinkTemplates(Scenario scenario, LinkStep step, long commitNs) {
        this.commitNs = commitNs;
        this.startNs = SimulationConfig.START_NS;
        int n = scenario.nodeCount();
        long[][] trueNs = new long[n][16];
        long[][] localNs = new long[n][16];
        int[] count = new int[n];
        Map<CommitFeed.Link, Template> byLink = new HashMap<>();
        CommitFeed feed = new CommitFeed(scenario, step, commitNs, (link, atNs, pairs, summaries) -> {
            Template t = byLink.computeIfAbsent(link, Template::new);
            for (LinkSummary s : summaries) {
                t.add((int) ((atNs - startNs) / commitNs), s);
            }
        });
        new Simulator(scenario).run(new SimulationSink() {
            @Override
            public void traceEvent(TraceEvent event) {
            }

            @Override
            public void pair(MatchedSegment pair) {
                feed.pair(pair);
            }

            @Override
            public void clockBreakpoint(int node, long t, long local) {
                if (count[node] == trueNs[node].length) {
                    trueNs[node] = Arrays.copyOf(trueNs[node], count[node] * 2);
                    localNs[node] = Arrays.copyOf(localNs[node], count[node] * 2);
                }
                trueNs[node][count[node]] = t;
                localNs[node][count[node]++] = local;
            }
        }, ns -> { });
        feed.commit();
        clocks = new PiecewiseLinearClock[n];
        for (int v = 0; v < n; v++) {
            clocks[v] = new PiecewiseLinearClock(Arrays.copyOf(trueNs[v], count[v]), Arrays.copyOf(localNs[v], count[v]),
                    scenario.config().resolutionNs());
        }
        feed.links().stream().sorted((x, y) -> x.id.toString().compareTo(y.id.toString()))
                .forEach(l -> templates.add(byLink.computeIfAbsent(l, Template::new)));
    }

    /** Runs {@code config}'s links through the link step of {@code settings} (a {@code mock://} registry will do). */
    static LinkTemplates record(SummaryRate.Config config, Settings settings) {
        SummaryRate rate = new SummaryRate(config, settings);
        return new LinkTemplates(SummaryRate.scenario(config), new LinkStep(settings), rate.commitIntervalNs());
    }

    List<Template> templates() {
        return templates;
    }

    long commitNs() {
        return commitNs;
    }

    /**
     * Summary {@code i} of {@code t} as link {@code link} of {@code network} would have sent it {@code shiftNs} of
     * true time later: the same quality and widths, its latest time a's reading then, its estimate, slope range and
     * lines as far off that link's true relation as the template's were off its own, and its slope accuracy (the
     * forest's weight, which no bound rests on) times {@code weightScale}.
     */
    LinkSummary onto(Template t, int i, RandomNetwork network, int link, long shiftNs, double weightScale) {
        LinkSummary s = t.summaries.get(i);
        PiecewiseLinearClock ca = clocks[t.link.a];
        PiecewiseLinearClock cb = clocks[t.link.b];
        long x0 = s.getLatestNs();
        long t0 = ca.trueAt(x0);
        long y0 = cb.localAt(t0);
        long lo = Math.max(ca.trueStart(), t0 - SLOPE_SPAN_NS);
        long hi = Math.min(ca.trueEnd(), t0 + SLOPE_SPAN_NS);
        double trueSlope = (double) (cb.localAt(hi) - cb.localAt(lo)) / (ca.localAt(hi) - ca.localAt(lo));
        long at = t0 + shiftNs;
        int a = network.a(link);
        int b = network.b(link);
        long x = network.local(a, at);
        long y = network.local(b, at);
        double slope = network.slope(link);
        double slopeError = slope - trueSlope;
        LinkSummary.Builder r = LinkSummary.newBuilder(s).setA(network.names[a]).setB(network.names[b])
                .setLatestNs(x)
                .setMinLine(line(s.getMinLine(), x0, y0, x, y, slopeError))
                .setMaxLine(line(s.getMaxLine(), x0, y0, x, y, slopeError));
        if (s.getEstimate() != null) {
            ClockMap e = PublishedFactor.clockMap(s.getEstimate());
            DoubleDouble error = e.apply(x0).subtract(DoubleDouble.of(y0));
            DoubleDouble moved = DoubleDouble.of(slope).add(e.slope().subtract(DoubleDouble.of(trueSlope)));
            r.setEstimate(LinkSummaries.clockMap(ClockMap.through(x, DoubleDouble.of(y).add(error), moved)));
        }
        if (s.getSlopeAccuracy() != null) {
            r.setSlopeAccuracy(s.getSlopeAccuracy() * weightScale);
        }
        if (s.getMinSlope() != null) {
            r.setMinSlope(Math.nextDown(s.getMinSlope() + slopeError));
        }
        if (s.getMaxSlope() != null) {
            r.setMaxSlope(Math.nextUp(s.getMaxSlope() + slopeError));
        }
        return r.build();
    }

    /** A line's points moved with the latest time: as far off the new relation as they were off the old. */
    private static Line line(Line l, long x0, long y0, long x, long y, double slopeError) {
        if (l == null) {
            return null;
        }
        return new Line(x + l.getX1() - x0, y + l.getY1() - y0 + Math.round(slopeError * (l.getX1() - x0)),
                x + l.getX2() - x0, y + l.getY2() - y0 + Math.round(slopeError * (l.getX2() - x0)));
    }
}
