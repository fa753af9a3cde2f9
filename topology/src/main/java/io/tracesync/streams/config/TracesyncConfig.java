package io.tracesync.streams.config;

import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.network.FactorGate;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.core.network.RegionPattern;
import io.tracesync.core.network.SummaryGate;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * tracesync's own configuration keys, each declared once with its type, default, validator, importance and
 * documentation, as Kafka's {@code StreamsConfig} declares its own. Kafka Streams, client and schema-registry keys
 * are not declared here: they pass through to Kafka ({@link KnownKeys}). docs/STREAMS.md's key table is generated
 * from {@link #CONFIG} ({@link ConfigTable}).
 */
public final class TracesyncConfig extends AbstractConfig {

    public static final String TRACES_PATTERN_CONFIG = "traces.pattern";
    public static final String TRACES_TOPIC_CONFIG = "traces.topic";
    public static final String TRACES_TOPIC_PREFIX_CONFIG = "traces.topic.prefix";
    public static final String TRACES_PARTITIONED_BY_SEGMENT_CONFIG = "traces.partitioned.by.segment";
    public static final String FACTORS_TOPIC_CONFIG = "factors.topic";
    public static final String FACTORS_HISTORY_TOPIC_CONFIG = "factors.history.topic";
    public static final String FACTORS_HISTORY_RETENTION_CONFIG = "factors.history.retention";
    public static final String FACTORS_HISTORY_SPACING_CONFIG = "factors.history.spacing";
    /** The default of {@link #FACTORS_HISTORY_SPACING_CONFIG}, for the options that replay the application. */
    public static final String FACTORS_HISTORY_SPACING_DEFAULT = HistoryGate.DEFAULT_SPACING_S + "s";
    public static final String FACTORS_HISTORY_TOLERANCE_CONFIG = "factors.history.tolerance";
    /** The default of {@link #FACTORS_HISTORY_TOLERANCE_CONFIG}, for the options that replay the application. */
    public static final String FACTORS_HISTORY_TOLERANCE_DEFAULT = HistoryGate.DEFAULT_TOLERANCE_US + "us";
    public static final String TREE_TOPIC_CONFIG = "tree.topic";
    public static final String LINKS_TOPIC_CONFIG = "links.topic";
    public static final String DLQ_TOPIC_CONFIG = "dlq.topic";
    public static final String TOPICS_PARTITIONS_CONFIG = "topics.partitions";
    public static final String TOPICS_REPLICATION_FACTOR_CONFIG = "topics.replication.factor";
    public static final String CHECK_MAX_CLOCK_JUMP_CONFIG = "check.max.clock.jump";
    public static final String MATCHER_ROTATION_CONFIG = "matcher.rotation";
    public static final String MATCHER_MAX_PENDING_CONFIG = "matcher.max.pending";
    public static final String PAIRS_BATCHED_CONFIG = "pairs.batched";
    public static final String LINK_HORIZON_CONFIG = "link.horizon";
    public static final String LINK_MIN_DELAY_CONFIG = "link.min.delay";
    public static final String LINK_CURVATURE_CONFIG = "link.curvature";
    public static final String LINK_STEP_PPB_CONFIG = "link.step.ppb";
    public static final String LINK_STEP_INTERVAL_CONFIG = "link.step.interval";
    public static final String LINK_MAX_DRIFT_PPM_CONFIG = "link.max.drift.ppm";
    public static final String LINK_EXCURSION_CONFIG = "link.excursion";
    public static final String LINK_WINDOW_MIN_CONFIG = "link.window.min";
    public static final String LINKS_MIN_CHANGE_CONFIG = "links.min.change";
    public static final String LINKS_WITH_NETWORK_CONFIG = "links.with.network";
    public static final String NETWORK_WEIGHT_CONFIG = "network.weight";
    public static final String NETWORK_METHOD_CONFIG = "network.method";
    public static final String NETWORK_APPROXIMATE_WEIGHT_CONFIG = "network.approximate.weight";
    public static final String NETWORK_REFERENCE_CONFIG = "network.reference";
    public static final String NETWORK_REFERENCE_RULE_CONFIG = "network.reference.rule";
    public static final String NETWORK_REGIONS_CONFIG = "network.regions";
    public static final String NETWORK_REGIONS_PARTITIONS_CONFIG = "network.regions.partitions";
    public static final String NETWORK_REGIONS_PER_PAIR_CONFIG = "network.regions.per.pair";
    public static final String FACTORS_EMIT_INTERVAL_CONFIG = "factors.emit.interval";
    public static final String FACTORS_MIN_CHANGE_CONFIG = "factors.min.change";
    public static final String FACTORS_EMIT_MAX_SHARE_CONFIG = "factors.emit.max.share";
    public static final String HTTP_HOST_CONFIG = "http.host";
    public static final String HTTP_PORT_CONFIG = "http.port";
    public static final String HTTP_PORT_FILE_CONFIG = "http.port.file";
    public static final String STARTUP_CHECK_TIMEOUT_CONFIG = "startup.check.timeout";

    /** The value of {@link #NETWORK_APPROXIMATE_WEIGHT_CONFIG} and {@link #HTTP_PORT_CONFIG} that turns them off. */
    public static final String NONE = "none";

    public static final ConfigDef CONFIG = new ConfigDef()
            .define(TRACES_PATTERN_CONFIG, Type.STRING, "traces\\..+", regex(), Importance.HIGH,
                    "Regular expression of the input topics, one per node (traces.NODE), read unless "
                            + TRACES_TOPIC_CONFIG + " is set.")
            .define(TRACES_TOPIC_CONFIG, Type.STRING, "", Importance.MEDIUM,
                    "One input topic holding every node's events instead of a topic per node (empty: use "
                            + TRACES_PATTERN_CONFIG + ").")
            .define(TRACES_TOPIC_PREFIX_CONFIG, Type.STRING, "traces.", Importance.LOW,
                    "Prefix of the per-node topics: an event of node N must come from the topic named prefix + N.")
            .define(TRACES_PARTITIONED_BY_SEGMENT_CONFIG, Type.BOOLEAN, false, Importance.LOW,
                    "The inputs are already in their TCP segment's partition, so the segments repartition is "
                            + "left out (docs/STREAMS.md, step 3).")
            .define(FACTORS_TOPIC_CONFIG, Type.STRING, "sync.factors", new ConfigDef.NonEmptyString(),
                    Importance.HIGH, "Output: every node's factor to its reference clock; created when missing.")
            .define(FACTORS_HISTORY_TOPIC_CONFIG, Type.STRING, "", Importance.MEDIUM,
                    "Output: the factor history, the records of the factors topic that " + FACTORS_HISTORY_SPACING_CONFIG
                            + " keeps, for " + FACTORS_HISTORY_RETENTION_CONFIG + " (deleted by time), so that a "
                            + "past timestamp converts with the versions around it (docs/STREAMS.md, step 9); "
                            + "created when missing. Empty: the factors topic's name followed by "
                            + ".history.")
            .define(FACTORS_HISTORY_RETENTION_CONFIG, Type.STRING, "7d", positiveDuration(), Importance.MEDIUM,
                    "How long the factor history is kept: the history topic's retention.ms when tracesync "
                            + "creates it, and the age past which the network task's history store (/convert) "
                            + "forgets a version, the newest of each node excepted.")
            .define(FACTORS_HISTORY_SPACING_CONFIG, Type.STRING, FACTORS_HISTORY_SPACING_DEFAULT, duration(),
                    Importance.LOW,
                    "How far apart, in the node's local time, the versions the history keeps are anchored at "
                            + "least: between two kept versions a past time converts with the chord of their "
                            + "intervals, widened by at most link.curvature·spacing²/8 (0.25 µs at 10 s), so the "
                            + "history keeps a version every spacing (and every new reference, step or superseding "
                            + "version) instead of every one published; 0: every version (docs/STREAMS.md, step 9). "
                            + "The datasheet bound (link.max.drift.ppm) has no chord: between kept versions it grows "
                            + "by 2R per s of distance, so where it must answer after the fact as narrowly as live, "
                            + "keep every version (0).")
            .define(FACTORS_HISTORY_TOLERANCE_CONFIG, Type.STRING, FACTORS_HISTORY_TOLERANCE_DEFAULT, duration(),
                    Importance.LOW,
                    "The history also keeps a version where the last kept one's map, carried to its anchor, "
                            + "answers more than this away from it, and the version published before it: within the "
                            + "spacing the relation may bend (a daemon's slew takes 100 µs out in seconds), and a "
                            + "chord across it would answer worse than the versions in force did; so every version "
                            + "left out answers within twice this of the history's chord. Under a daemon's slews 5 µs "
                            + "keeps 1.2-2.3 times the versions of the spacing alone on a LAN, 2.2 times across a WAN "
                            + "(87 % of those published); 2 % more on clocks that keep to the model; 0: the spacing "
                            + "alone (docs/ACCURACY.md, \"Answers after the fact\").")
            .define(TREE_TOPIC_CONFIG, Type.STRING, "sync.tree", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                    "Output: snapshots of the spanning forest; created when missing.")
            .define(LINKS_TOPIC_CONFIG, Type.STRING, "sync.links", new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, "Output: every link's summary (hull, estimate, bounds); created when missing.")
            .define(DLQ_TOPIC_CONFIG, Type.STRING, "sync.dlq", new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "Dead-letter topic: every bad record with its reason in the headers; created when missing.")
            .define(TOPICS_PARTITIONS_CONFIG, Type.INT, 3, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                    "Partitions of the topics tracesync creates.")
            .define(TOPICS_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) 1, ConfigDef.Range.atLeast(1),
                    Importance.MEDIUM, "Replication factor of the topics tracesync creates.")
            .define(CHECK_MAX_CLOCK_JUMP_CONFIG, Type.STRING, "1h", duration(), Importance.LOW,
                    "Largest step between a node's consecutive timestamps (per partition); a larger one is a dead "
                            + "letter. none: unchecked.")
            .define(MATCHER_ROTATION_CONFIG, Type.STRING, "30s", positiveDuration(), Importance.MEDIUM,
                    "How long an unmatched event waits for its other half: it is dropped after one to two "
                            + "rotations.")
            .define(MATCHER_MAX_PENDING_CONFIG, Type.LONG, 1_000_000L, ConfigDef.Range.atLeast(1),
                    Importance.LOW, "Most unmatched keys held per task; beyond it the oldest generation is "
                            + "flushed early.")
            .define(PAIRS_BATCHED_CONFIG, Type.BOOLEAN, true, Importance.LOW,
                    "Forward each link's pairs together before each commit (step 5); off in the deterministic mode.")
            .define(LINK_HORIZON_CONFIG, Type.STRING, "30m", duration(), Importance.MEDIUM,
                    "Sliding horizon of a link: pairs older than its latest time minus this are forgotten "
                            + "(docs/LINK-CORE.md); under a clock model (link.curvature > 0) the longest window, "
                            + "at most. none: keep every pair (linear clocks only).")
            .define(LINK_MIN_DELAY_CONFIG, Type.STRING, "0ns", duration(), Importance.LOW,
                    "A known minimum one-way delay, subtracted before the hulls [Ashton 1995, §6].")
            .define(LINK_CURVATURE_CONFIG, Type.DOUBLE, LinkOptions.DEFAULT_CURVATURE_PPB_PER_S,
                    ConfigDef.Range.between(0, 1e6), Importance.MEDIUM,
                    "The clock model every bound rests on: how fast the relative frequency of two clocks may "
                            + "change, in ppb per second (docs/LINK-CORE.md, \"Clocks that bend\"). The default "
                            + "covers a quartz oscillator's temperature cycle of several °C within minutes and ntpd's "
                            + "small frequency corrections, not chrony's steps and slews (link.step.ppb, "
                            + "link.excursion); 0: linear clocks, one window (the horizon). Not used with "
                            + "link.horizon=none, which presumes linear clocks.")
            .define(LINK_STEP_PPB_CONFIG, Type.DOUBLE, 0.0, ConfigDef.Range.between(0, 1e6), Importance.MEDIUM,
                    "Frequency steps on top of link.curvature (docs/LINK-CORE.md, \"Frequency steps\"): a time "
                            + "daemon that sets the frequency at each update and slews offsets out (chrony) steps "
                            + "the relative frequency of two clocks; the steps within any link.step.interval add up "
                            + "to at most this, in ppb. 0: none (only steps below link.curvature·window/2 covered). "
                            + "Needs link.curvature > 0.")
            .define(LINK_STEP_INTERVAL_CONFIG, Type.STRING, LinkOptions.DEFAULT_STEP_INTERVAL_S + "s",
                    positiveDuration(), Importance.LOW,
                    "The interval within which the frequency steps add up to at most link.step.ppb: the daemons' "
                            + "update interval (chrony's minpoll 6: 64 s).")
            .define(LINK_EXCURSION_CONFIG, Type.STRING, "0s", duration(), Importance.MEDIUM,
                    "Offset excursions on top of link.curvature (docs/LINK-CORE.md, \"Offset excursions\"): the "
                            + "relation of two clocks may depart from a curve the clock model describes by at most "
                            + "this either way — the offsets a time daemon slews out (chrony: 2.002 times the "
                            + "largest offset corrected at one update on any host, plus (frequency "
                            + "change)²/(16·link.curvature) for the largest frequency update). A link's bounds widen "
                            + "by about 4 times it (its pairs moved outward by it, then it on each side), a node's by "
                            + "as much once; the estimate stays the pairs' own. Costs a second set of windows per "
                            + "link. 0: none (at most 1s).")
            .define(LINK_MAX_DRIFT_PPM_CONFIG, Type.DOUBLE, 0.0, ConfigDef.Range.between(0, 100_000),
                    Importance.MEDIUM, "The datasheet bound (docs/LINK-CORE.md, \"The datasheet bound\"): each "
                            + "clock's rate stays within ±this many ppm of true time — its crystal's tolerance plus "
                            + "the most its time daemon may adjust (600 under ntpd, or chrony with maxslewrate 500). "
                            + "Every link summary then carries its interval under that statement alone "
                            + "(datasheet_up_ps, datasheet_down_ps in /links), and every factor record the node's "
                            + "conversion under it (datasheet in sync.factors, datasheet_lower_ns/upper_ns in "
                            + "/convert), at the cost of a second network evaluation per emission. 0: none.")
            .define(LINK_WINDOW_MIN_CONFIG, Type.STRING, "30s", positiveDuration(), Importance.LOW,
                    "The shortest window a link keeps under the clock model; each next one is 4 times longer, up to "
                            + "the horizon, and the narrowest answers.")
            .define(LINKS_MIN_CHANGE_CONFIG, Type.DOUBLE, SummaryGate.DEFAULT_MIN_CHANGE, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "How much wider than a link's own bounds the network's may become before the link emits a new "
                            + "summary: the one last emitted, carried to the link's latest time, is at most 1 + this "
                            + "fraction times as wide (also the share of the width its estimate may move); a quality "
                            + "change always emits. Of the summaries, the network task applies those that can move "
                            + "a node's interval (beyond the link's slack) or whose estimate moved by an eighth of "
                            + "that share, and its spanning forest follows a link's weight once it moved by a factor "
                            + "1 + 4 times this (docs/NETWORK-CORE.md). 0: every change, all applied.")
            .define(LINKS_WITH_NETWORK_CONFIG, Type.BOOLEAN, false, Importance.LOW,
                    "Run the link step in the network's task: no network repartition (step 7).")
            .define(NETWORK_WEIGHT_CONFIG, Type.STRING, LinkWeight.SLOPE_ACCURACY.label(),
                    ConfigDef.ValidString.in(labels(LinkWeight.values(), LinkWeight::label)), Importance.MEDIUM,
                    "What ranks links for the spanning forest (docs/NETWORK-CORE.md).")
            .define(NETWORK_METHOD_CONFIG, Type.STRING, NetworkMethod.ALL_LINKS.label(),
                    ConfigDef.ValidString.in(labels(NetworkMethod.values(), NetworkMethod::label)), Importance.MEDIUM,
                    "The published factors: from every link, or along the spanning tree (docs/NETWORK-CORE.md).")
            .define(NETWORK_APPROXIMATE_WEIGHT_CONFIG, Type.STRING, NONE, noneOrPositiveNumber(), Importance.LOW,
                    "The weight of links with only an approximate estimate, so they join the forest; none: they "
                            + "do not.")
            .define(NETWORK_REFERENCE_CONFIG, Type.STRING, "", Importance.LOW,
                    "A node pinned as its component's reference (empty: by network.reference.rule).")
            .define(NETWORK_REFERENCE_RULE_CONFIG, Type.STRING, ReferenceRule.MOST_LINKS.label(),
                    ConfigDef.ValidString.in(labels(ReferenceRule.values(), ReferenceRule::label)), Importance.LOW,
                    "Each component's reference: most-links (the node with the most links in the spanning forest's "
                            + "graph, of those the smallest name: moves only when links start or stop) or centroid "
                            + "(of the spanning tree [Jabbarifar 2013, ch. 4]: moves with the tree's shape; "
                            + "docs/NETWORK-CORE.md).")
            .define(NETWORK_REGIONS_CONFIG, Type.STRING, "", regionPattern(), Importance.MEDIUM,
                    "A regular expression whose first group names a node's region (a rack, a zone; e.g. "
                            + "^(rack\\d+)-): each region's links are solved in a task of its own, spread over "
                            + NETWORK_REGIONS_PARTITIONS_CONFIG + " partitions, and the links between regions in one "
                            + "backbone task, the two exchanging factors (docs/NETWORK-CORE.md, Regions). Names it "
                            + "does not match are one region. Empty: the network is solved whole, in one task.")
            .define(NETWORK_REGIONS_PARTITIONS_CONFIG, Type.INT, 4, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "With " + NETWORK_REGIONS_CONFIG + ": the partitions, and so the tasks, the regions are "
                            + "spread over: a region whose name ends in a number n to partition n modulo this (so "
                            + "regions numbered in a row spread evenly), any other by the hash of its name.")
            .define(NETWORK_REGIONS_PER_PAIR_CONFIG, Type.INT, 0, ConfigDef.Range.atLeast(0), Importance.LOW,
                    "With " + NETWORK_REGIONS_CONFIG + ": the links the backbone holds per pair of regions, the "
                            + "lightest by " + NETWORK_WEIGHT_CONFIG + "; 0: all.")
            .define(FACTORS_EMIT_INTERVAL_CONFIG, Type.STRING, "1s", duration(), Importance.MEDIUM,
                    "How often changed factors are published; 0: at once, the deterministic mode (docs/STREAMS.md, "
                            + "Guarantees).")
            .define(FACTORS_MIN_CHANGE_CONFIG, Type.DOUBLE, FactorGate.DEFAULT_MIN_CHANGE, ConfigDef.Range.atLeast(0),
                    Importance.LOW,
                    "How much a node's factor must change to be published again, as a fraction of its bound: its "
                            + "bounds, or the time it converts to, moving by more than this at the new factor's "
                            + "anchor (where the data now ends), the published one's bounds grown with their "
                            + "distance from its own anchor. A new reference always publishes. 0: every change.")
            .define(FACTORS_EMIT_MAX_SHARE_CONFIG, Type.DOUBLE, 0.25, ConfigDef.Range.between(0.01, 1),
                    Importance.LOW, "The largest share of the network task's thread its evaluations may take: "
                            + "after an emission whose evaluation and publication took c, the next waits until "
                            + "c (1/this share - 1) after its end (and factors.emit.interval). Only large networks "
                            + "meet it (hundreds of ms at 60,000 nodes); 1: every interval.")
            .define(HTTP_HOST_CONFIG, Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                    "Interface of the HTTP side of run (health, metrics, queries, live view); containers use "
                            + "0.0.0.0.")
            .define(HTTP_PORT_CONFIG, Type.STRING, "8080", port(), Importance.MEDIUM,
                    "Port of the HTTP side; 0: any free one, none: no HTTP side.")
            .define(HTTP_PORT_FILE_CONFIG, Type.STRING, "", Importance.LOW,
                    "A file the instance writes its HTTP port to (a decimal number and a newline, replaced at "
                            + "once) as soon as it listens: how a supervisor or a test that starts it with "
                            + "http.port=0 learns the port. Empty: none.")
            .define(STARTUP_CHECK_TIMEOUT_CONFIG, Type.STRING, "15s", duration(), Importance.LOW,
                    "How long a command waits, before it starts, for the brokers and the schema registry to "
                            + "answer; none: no check.");

    private final Map<String, Duration> durations;

    public TracesyncConfig(Map<String, ?> values) {
        super(CONFIG, values, false);
        Map<String, Duration> d = new HashMap<>();
        CONFIG.configKeys().values().stream().filter(k -> k.validator instanceof DurationValidator)
                .forEach(k -> d.put(k.name, DurationValidator.parse(k.name, getString(k.name))));
        durations = Map.copyOf(d);
    }

    /** A duration key's value, parsed once. */
    public Duration getDuration(String key) {
        Duration d = durations.get(key);
        if (d == null) {
            throw new ConfigException("not a duration key: " + key);
        }
        return d;
    }

    private static <E> String[] labels(E[] values, Function<E, String> label) {
        return Arrays.stream(values).map(label).toArray(String[]::new);
    }

    private static ConfigDef.Validator regex() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            try {
                Pattern.compile((String) value);
            } catch (PatternSyntaxException e) {
                throw new ConfigException(name, value, "not a regular expression: " + e.getDescription());
            }
        }, () -> "a regular expression");
    }

    /** Empty, or a regular expression with a group ({@link RegionPattern}). */
    private static ConfigDef.Validator regionPattern() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (((String) value).isEmpty()) {
                return;
            }
            try {
                RegionPattern.of((String) value);
            } catch (PatternSyntaxException e) {
                throw new ConfigException(name, value, "not a regular expression: " + e.getDescription());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, "needs a group, (...), naming the region");
            }
        }, () -> "empty, or a regular expression with a group");
    }

    private static ConfigDef.Validator duration() {
        return new DurationValidator(false);
    }

    private static ConfigDef.Validator positiveDuration() {
        return new DurationValidator(true);
    }

    /**
     * A duration as users write it ({@link Durations}): the key is declared a string, validated here, and parsed
     * once when the configuration is made ({@link #getDuration}).
     */
    private record DurationValidator(boolean positive) implements ConfigDef.Validator {

        @Override
        public void ensureValid(String name, Object value) {
            Duration d = parse(name, value);
            if (positive && (d.isZero() || d.isNegative())) {
                throw new ConfigException(name, value, "must be longer than zero");
            }
        }

        static Duration parse(String name, Object value) {
            try {
                return Durations.parse((String) value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return positive ? "a duration longer than zero: 30m, 90s, 500ms, 2h, ISO-8601"
                    : "a duration: 30m, 90s, 500ms, 2h, ISO-8601, or none";
        }
    }

    private static ConfigDef.Validator noneOrPositiveNumber() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (!NONE.equals(value)) {
                try {
                    if (!(Double.parseDouble((String) value) > 0)) {
                        throw new ConfigException(name, value, "must be none or a number above zero");
                    }
                } catch (NumberFormatException e) {
                    throw new ConfigException(name, value, "must be none or a number above zero");
                }
            }
        }, () -> "none, or a number above zero");
    }

    private static ConfigDef.Validator port() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (!NONE.equals(value)) {
                try {
                    int p = Integer.parseInt((String) value);
                    if (p < 0 || p > 65535) {
                        throw new ConfigException(name, value, "must be none or a port, 0 to 65535");
                    }
                } catch (NumberFormatException e) {
                    throw new ConfigException(name, value, "must be none or a port, 0 to 65535");
                }
            }
        }, () -> "none, or a port 0…65535");
    }
}
