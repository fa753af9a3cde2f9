package io.tracesync.eval;

import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.network.Conversion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every node's factor history as a consumer holds it some {@link Age} after the fact: to convert what a node read at
 * true time τ, its {@link NodeHistory} holds every factor row of the node drained up to τ + age, each a
 * {@link FactorVersion} numbered in drain order, at most {@code capacity} of them (1: the newest alone, as a
 * conversion without history answers). Of the rows the history keeps those its {@link HistoryGate} keeps, as the
 * application's history does, and the newest row besides, as a consumer of the factors topic has it. A sweep: the
 * rows join the history as the times asked for advance, so each node's times must not decrease.
 */
final class HistorySweep {

    private final Age age;
    private final HistoryGate gate;
    private final Map<String, Node> nodes = new HashMap<>();

    /** One node's rows in drain order, those known so far in its history. */
    private static final class Node {
        final List<FactorVersion> versions = new ArrayList<>();
        final List<Long> drainedNs = new ArrayList<>();
        final NodeHistory history;
        FactorVersion lastKept;
        FactorVersion newest;
        int known;
        long lastTrueNs = Long.MIN_VALUE;

        Node(int capacity) {
            history = new NodeHistory(capacity);
        }
    }

    /**
     * @param rows the factor rows of one replay, in drain order
     * @param capacity the most versions a node's history holds, at least 1
     * @param gate which rows the history keeps
     */
    HistorySweep(List<FactorRow> rows, Age age, int capacity, HistoryGate gate) {
        this(rows, age, capacity, gate, false);
    }

    /**
     * @param datasheet whether the rows are bounds under the datasheet alone ({@link DatasheetPolicy}'s), which the
     *     versions carry as their datasheet bounds besides
     */
    HistorySweep(List<FactorRow> rows, Age age, int capacity, HistoryGate gate, boolean datasheet) {
        this.age = age;
        this.gate = gate;
        for (int i = 0; i < rows.size(); i++) {
            FactorRow r = rows.get(i);
            Node n = nodes.computeIfAbsent(r.node(), k -> new Node(capacity));
            n.versions.add(new FactorVersion(i + 1, r.reference(), r.factor(), r.trueNs() / 1_000_000,
                    r.steadyFromNs(), datasheet ? r.factor() : null));
            n.drainedNs.add(r.trueNs());
        }
    }

    /**
     * {@code node}'s local time {@code localNs}, read at true time {@code trueNs}, converted with the node's rows
     * drained up to {@code trueNs} + age; null while none was.
     *
     * @throws IllegalArgumentException if {@code trueNs} is before a time asked for the node already
     */
    HistoricConversion convert(String node, long trueNs, long localNs) {
        Node n = known(node, trueNs);
        return n == null ? null : n.history.convert(localNs, n.newest);
    }

    /**
     * The same under the datasheet alone ({@link NodeHistory#convertUnderDatasheet}), to the reference of
     * {@link #convert}'s answer; null while no row was drained or none around the time carries a datasheet bound.
     */
    Sheet convertUnderDatasheet(String node, long trueNs, long localNs) {
        Node n = known(node, trueNs);
        if (n == null) {
            return null;
        }
        String reference = n.history.convert(localNs, n.newest).version().reference();
        Conversion c = n.history.convertUnderDatasheet(localNs, n.newest, reference);
        return c == null ? null : new Sheet(reference, c);
    }

    /** A conversion under the datasheet, and the reference it is to. */
    record Sheet(String reference, Conversion conversion) {
    }

    /** The node with every row drained up to {@code trueNs} + age in its history; null if it has no rows. */
    private Node known(String node, long trueNs) {
        Node n = nodes.get(node);
        if (n == null) {
            return null;
        }
        if (trueNs < n.lastTrueNs) {
            throw new IllegalArgumentException(node + ": true time " + trueNs + " before " + n.lastTrueNs);
        }
        n.lastTrueNs = trueNs;
        long until = age.knownUntilNs(trueNs);
        while (n.known < n.versions.size() && n.drainedNs.get(n.known) <= until) {
            FactorVersion v = n.versions.get(n.known++);
            for (FactorVersion k : gate.kept(n.lastKept, n.newest, v)) {
                n.history.add(k);
                n.lastKept = k;
            }
            n.newest = v;
        }
        return n.newest == null ? null : n;
    }
}
