package io.tracesync.sim;

import java.util.SplittableRandom;

/**
 * The fixed part of a simulation, drawn from the seed before any traffic: the topology, every node's clock and
 * presence, every link's connection and delays. Each node and each link draws from its own stream, all values
 * in a fixed order whether used or not, so changing one option (say, the churn) does not redraw the others.
 */
public final class Scenario {

    private final SimulationConfig config;
    private final ClusterLayout topology;
    private final NodeSpec[] nodes;
    private final LinkSpec[] links;

    private Scenario(SimulationConfig config, ClusterLayout topology, NodeSpec[] nodes, LinkSpec[] links) {
        this.config = config;
        this.topology = topology;
        this.nodes = nodes;
        this.links = links;
    }

    /** Draws the scenario of a configuration. */
    public static Scenario build(SimulationConfig c) {
        RandomStreams streams = new RandomStreams(c.seed());
        ClusterLayout topology = ClusterLayout.build(c.topology(), c.nodes(), c.degree(), c.groupSize(),
                streams.stream(RandomStreams.Purpose.TOPOLOGY, 0));
        NodeSpec[] nodes = new NodeSpec[c.nodes()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(c, i, streams.stream(RandomStreams.Purpose.NODE, i),
                    streams.stream(RandomStreams.Purpose.POLL_PHASE, i));
        }
        LinkSpec[] links = new LinkSpec[topology.links()];
        for (int j = 0; j < links.length; j++) {
            links[j] = link(c, topology, j, streams.stream(RandomStreams.Purpose.LINK, j));
        }
        return new Scenario(c, topology, nodes, links);
    }

    private static NodeSpec node(SimulationConfig c, int i, SplittableRandom r, SplittableRandom pollPhase) {
        long offset = r.nextLong(-c.maxOffsetNs(), c.maxOffsetNs() + 1);
        double low = Math.min(1, c.maxDriftPpm());
        double drift = (low + (c.maxDriftPpm() - low) * r.nextDouble()) * (r.nextBoolean() ? 1 : -1);
        double phase = 2 * Math.PI * r.nextDouble();
        boolean churns = r.nextDouble() < c.churn();
        int mode = r.nextInt(3);
        long half = Math.max(1, c.durationNs() / 2);
        long lateBy = r.nextLong(half);
        long earlyBy = r.nextLong(half);
        ClockDiscipline daemon = c.discipline().active()
                ? c.discipline().withPhase(pollPhase.nextLong(c.discipline().pollNs() / c.stepNs()) * c.stepNs())
                : c.discipline();
        ClockParams clock = new ClockParams(offset, drift, c.wander() ? c.wanderWalkPpmPerSqrtS() : 0,
                c.wander() ? c.wanderAmplitudePpm() : 0, c.wanderPeriodNs(), phase, c.resolutionNs(), daemon, c.jumps());
        long start = SimulationConfig.START_NS;
        long join = churns && mode != 1 ? start + lateBy : start;
        long leave = churns && mode != 0 ? start + c.durationNs() - earlyBy : start + c.durationNs();
        return new NodeSpec(i, NodeSpec.name(i, c.nodes()), NodeSpec.address(i), clock, join, leave);
    }

    private static LinkSpec link(SimulationConfig c, ClusterLayout t, int j, SplittableRandom r) {
        boolean clientIsA = r.nextBoolean();
        boolean oneWay = r.nextDouble() < c.oneWayFraction();
        double rate = c.rateMin() * Math.pow(c.rateMax() / c.rateMin(), r.nextDouble());
        double perDirection = c.minDelayNs() * t.hops(j) / (double) ClusterLayout.NEAR;
        long forward = Math.round(perDirection * (1 + c.asymmetry() * (2 * r.nextDouble() - 1)));
        long backward = Math.round(perDirection * (1 + c.asymmetry() * (2 * r.nextDouble() - 1)));
        int port = 32768 + r.nextInt(28232);
        long clientIsn = r.nextLong(1L << 32);
        long serverIsn = r.nextLong(1L << 32);
        return new LinkSpec(j, clientIsA ? t.a(j) : t.b(j), clientIsA ? t.b(j) : t.a(j), t.hops(j), oneWay, rate,
                forward, backward, port, LinkSpec.SERVER_PORT, clientIsn, serverIsn);
    }

    public SimulationConfig config() {
        return config;
    }

    public ClusterLayout topology() {
        return topology;
    }

    public NodeSpec node(int i) {
        return nodes[i];
    }

    public int nodeCount() {
        return nodes.length;
    }

    public LinkSpec link(int j) {
        return links[j];
    }

    public int linkCount() {
        return links.length;
    }

    /** True time at which tracing stops on every node. */
    public long endNs() {
        return SimulationConfig.START_NS + config.durationNs();
    }

    DelayModel delays() {
        return new DelayModel(config.distribution(), config.extraDelayNs(), config.interruptProbability(),
                config.interruptDelayNs());
    }
}
