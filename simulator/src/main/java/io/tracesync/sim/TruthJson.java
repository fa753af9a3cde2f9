package io.tracesync.sim;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code truth.json}: the options of the run, every node's clock parameters and presence, every link's
 * connection and minimum delays, and the counts. Streamed, so 10,000 nodes cost no tree in memory. The exact
 * clocks are in {@code truth-clocks.csv}; this file gives what they were drawn from.
 */
final class TruthJson {

    static final String FILE = "truth.json";
    static final String FORMAT = "tracesync-simulation-truth/1";

    private TruthJson() {
    }

    static void write(Path file, Scenario s, SimulationStats stats) throws IOException {
        SimulationConfig c = s.config();
        try (JsonGenerator g = new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeNumberField("seed", c.seed());
            g.writeNumberField("start_ns", SimulationConfig.START_NS);
            g.writeNumberField("end_ns", s.endNs());
            g.writeNumberField("step_ns", c.stepNs());
            config(g, c);
            g.writeArrayFieldStart("nodes");
            for (int i = 0; i < s.nodeCount(); i++) {
                node(g, s.node(i));
            }
            g.writeEndArray();
            g.writeArrayFieldStart("links");
            for (int j = 0; j < s.linkCount(); j++) {
                link(g, s, s.link(j));
            }
            g.writeEndArray();
            g.writeObjectFieldStart("counts");
            g.writeNumberField("nodes", s.nodeCount());
            g.writeNumberField("links", s.linkCount());
            g.writeNumberField("events", stats.events());
            g.writeNumberField("sends", stats.sends);
            g.writeNumberField("retransmissions", stats.retransmissions);
            g.writeNumberField("recvs", stats.recvs);
            g.writeNumberField("pairs", stats.recvs);
            g.writeNumberField("dropped", stats.dropped);
            g.writeNumberField("abandoned", stats.abandoned);
            g.writeNumberField("clock_breakpoints", stats.breakpoints);
            g.writeNumberField("clock_jumps", stats.jumps);
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    private static void config(JsonGenerator g, SimulationConfig c) throws IOException {
        g.writeObjectFieldStart("config");
        g.writeNumberField("nodes", c.nodes());
        g.writeStringField("topology", c.topology().name().toLowerCase(Locale.ROOT));
        g.writeNumberField("degree", c.degree());
        g.writeNumberField("group_size", c.groupSize());
        g.writeNumberField("duration_ns", c.durationNs());
        g.writeNumberField("max_offset_ns", c.maxOffsetNs());
        g.writeNumberField("max_drift_ppm", c.maxDriftPpm());
        g.writeBooleanField("wander", c.wander());
        g.writeNumberField("wander_walk_ppm_per_sqrt_s", c.wanderWalkPpmPerSqrtS());
        g.writeNumberField("wander_amplitude_ppm", c.wanderAmplitudePpm());
        g.writeNumberField("wander_period_ns", c.wanderPeriodNs());
        g.writeNumberField("ntp_poll_ns", c.discipline().pollNs());
        g.writeNumberField("ntp_noise_ns", c.discipline().noiseNs());
        g.writeStringField("ntp_daemon", c.discipline().daemon().name().toLowerCase(Locale.ROOT));
        g.writeNumberField("ntp_max_slew_ppm", c.discipline().maxSlewPpm());
        g.writeNumberField("ntp_corr_time_ratio", c.discipline().corrTimeRatio());
        g.writeNumberField("ntp_start_offset_ns", c.discipline().startOffsetNs());
        g.writeNumberField("jumps_every_ns", c.jumps().meanIntervalNs());
        g.writeNumberField("jump_min_ns", c.jumps().minNs());
        g.writeNumberField("jump_max_ns", c.jumps().maxNs());
        g.writeNumberField("resolution_ns", c.resolutionNs());
        g.writeNumberField("loss", c.loss());
        g.writeNumberField("rate_min_per_s", c.rateMin());
        g.writeNumberField("rate_max_per_s", c.rateMax());
        g.writeNumberField("min_delay_ns", c.minDelayNs());
        g.writeNumberField("asymmetry", c.asymmetry());
        g.writeNumberField("extra_delay_ns", c.extraDelayNs());
        g.writeStringField("delay_distribution", c.distribution().name().toLowerCase(Locale.ROOT));
        g.writeNumberField("interrupt_probability", c.interruptProbability());
        g.writeNumberField("interrupt_delay_ns", c.interruptDelayNs());
        g.writeNumberField("service_time_ns", c.serviceTimeNs());
        g.writeNumberField("one_way_fraction", c.oneWayFraction());
        g.writeNumberField("rto_ns", c.rtoNs());
        g.writeNumberField("max_retries", c.maxRetries());
        g.writeNumberField("churn", c.churn());
        g.writeEndObject();
    }

    private static void node(JsonGenerator g, NodeSpec n) throws IOException {
        ClockParams k = n.clock();
        g.writeStartObject();
        g.writeStringField("node", n.name());
        g.writeStringField("address", n.address());
        g.writeNumberField("offset_ns", k.offsetNs());
        g.writeNumberField("drift_ppm", k.driftPpm());
        g.writeNumberField("wander_walk_ppm_per_sqrt_s", k.walkPpmPerSqrtS());
        g.writeNumberField("cycle_amplitude_ppm", k.cycleAmplitudePpm());
        g.writeNumberField("cycle_period_ns", k.cyclePeriodNs());
        g.writeNumberField("cycle_phase_rad", k.cyclePhase());
        g.writeNumberField("resolution_ns", k.resolutionNs());
        g.writeNumberField("ntp_poll_phase_ns", k.discipline().phaseNs());
        g.writeNumberField("join_ns", n.joinNs());
        g.writeNumberField("leave_ns", n.leaveNs());
        g.writeEndObject();
    }

    private static void link(JsonGenerator g, Scenario s, LinkSpec l) throws IOException {
        g.writeStartObject();
        g.writeStringField("client", s.node(l.client()).name());
        g.writeStringField("server", s.node(l.server()).name());
        g.writeStringField("kind", l.oneWay() ? "one-way" : "request-response");
        g.writeNumberField("hops", l.hops());
        g.writeNumberField("rate_per_s", l.ratePerS());
        g.writeNumberField("min_delay_client_to_server_ns", l.minForwardNs());
        g.writeNumberField("min_delay_server_to_client_ns", l.minBackwardNs());
        g.writeNumberField("client_port", l.clientPort());
        g.writeNumberField("server_port", l.serverPort());
        g.writeNumberField("client_isn", l.clientIsn());
        g.writeNumberField("server_isn", l.serverIsn());
        g.writeEndObject();
    }
}
