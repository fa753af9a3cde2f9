package io.tracesync.streams.metrics;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Live counters of one application instance, read by the progress line and the metrics endpoint. Counters are per
 * instance and restart from zero with the process; the topics hold the durable truth.
 */
public final class PipelineStats {

    /** The configuration key under which an instance hands its stats to the exception handlers it configures. */
    public static final String CONFIG = "tracesync.pipeline.stats";

    public final AtomicLong events = new AtomicLong();
    public final AtomicLong pairs = new AtomicLong();
    public final AtomicLong duplicates = new AtomicLong();
    public final AtomicLong expiredUnmatched = new AtomicLong();
    public final AtomicLong pendingSegments = new AtomicLong();
    /** Pairs applied to their link's hulls, and the summaries that came of them. */
    public final AtomicLong linkPairs = new AtomicLong();
    public final AtomicLong linkSummaries = new AtomicLong();
    public final AtomicLong accurateLinks = new AtomicLong();
    /** Pairs that left a link no line within the clock model's allowance: each restarted its link's windows. */
    public final AtomicLong contradictions = new AtomicLong();
    /** Links whose clocks turn at more than half the clock model's ρ′, counted by this instance's link tasks. */
    public final AtomicLong nearModelLinks = new AtomicLong();
    /** Links whose data showed a step of the relative frequency beyond the clock model, counted likewise. */
    public final AtomicLong steppedLinks = new AtomicLong();
    /** Links left out at the last emission, each contradicting the other paths between its nodes. */
    public final AtomicLong inconsistentLinks = new AtomicLong();
    /** Link summaries the network core has taken at emissions: each link's last applied, those before replaced. */
    public final AtomicLong networkUpdates = new AtomicLong();
    /** Of those, the ones applied: the last of each link's, where it could move an answer ({@code SlackGate}). */
    public final AtomicLong networkApplied = new AtomicLong();
    /** Link summaries that reached the network task since its last emission, waiting for the next. */
    public final AtomicLong networkPending = new AtomicLong();
    public final AtomicLong factorRecords = new AtomicLong();
    public final AtomicLong treeRecords = new AtomicLong();
    /** Factor records the history kept (written to its store and topic). */
    public final AtomicLong historyRecords = new AtomicLong();
    /** Factor versions deleted from the history store past its retention. */
    public final AtomicLong historyExpired = new AtomicLong();
    /** Components that got a new reference node (a new component included). */
    public final AtomicLong referenceChanges = new AtomicLong();
    /** Links of the network task by their latest quality (ABSENT, ..., ACCURATE). */
    public final Map<String, AtomicLong> linksByQuality = new ConcurrentHashMap<>();
    /** At the last emission, how long the oldest link summary it reflects had waited (record time to emission). */
    public final AtomicLong factorLagMs = new AtomicLong();
    /** Records sent to the dead-letter topic by the exception handlers. */
    public final AtomicLong deadLetters = new AtomicLong();
    /** Writes the broker refused for a transient reason, retried by restarting their task from its last commit. */
    public final AtomicLong retriedWrites = new AtomicLong();
    public final AtomicReference<String> reference = new AtomicReference<>("");
    /** The instance's Kafka Streams state (CREATED, REBALANCING, RUNNING, …), for the live line. */
    public final AtomicReference<String> state = new AtomicReference<>("CREATED");
    /** What the instance waits for before Kafka Streams starts (no trace topic exists yet), or null. */
    public final AtomicReference<String> waitingFor = new AtomicReference<>();
    /** The widest bound of the published factors, at their anchors, in picoseconds (-1: none yet). */
    public final AtomicLong worstBoundPs = new AtomicLong(-1);
    /** Stream threads that failed and were replaced (an unavailable schema registry, say). */
    public final AtomicLong replacedThreads = new AtomicLong();
    /** What stopped the last replaced thread, or null. */
    public final AtomicReference<Throwable> lastThreadFailure = new AtomicReference<>();

    /** The stats handed over in a client configuration, or a private instance if none was. */
    public static PipelineStats of(Map<String, ?> configs) {
        return configs.get(CONFIG) instanceof PipelineStats s ? s : new PipelineStats();
    }

    /** The replaced threads and what stopped the last one, for a test's failure message or a log line. */
    public String threadFailures() {
        Throwable last = lastThreadFailure.get();
        if (last == null) {
            return replacedThreads.get() + " threads replaced";
        }
        StringWriter trace = new StringWriter();
        last.printStackTrace(new PrintWriter(trace));
        return replacedThreads.get() + " threads replaced, the last by " + trace;
    }
}
