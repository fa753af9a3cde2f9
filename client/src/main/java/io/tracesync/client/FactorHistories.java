package io.tracesync.client;

import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.HistoryGate;
import io.tracesync.core.history.NodeHistory;
import io.tracesync.core.network.Conversion;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;

/**
 * Every node's factor versions ({@link NodeHistory}) within a budget of versions shared by the nodes, and
 * conversions with them. Each node holds at most max(2, budget / nodes) versions, recomputed as nodes come and go;
 * beyond it, and when they expire, a node's oldest go first and its newest always stays. A tombstone drops the
 * node's history. Written by the clock's thread, read by any.
 *
 * <p>A version held costs 204 bytes of heap with compressed references (the JVM's default below 32 GB of heap),
 * counted as {@value #BYTES_PER_VERSION}: 48 for the {@link FactorVersion}, 64 its factor, 24 its map, 2 × 32 the
 * map's double-doubles, 4 its slot in the node's ring; the reference's name is shared. A datasheet bound
 * ({@code link.max.drift.ppm}) adds its factor, map and double-doubles, 152 bytes, counted as
 * {@value #BYTES_PER_DATASHEET}: once
 * a version carries one the budget holds proportionally fewer versions. FactorHistoriesFootprintTest measures both.
 *
 * <p>The history topic's records are the versions the application's history kept (one per
 * {@code factors.history.spacing} of the node's time, and every new reference, step or departure beyond
 * {@code factors.history.tolerance}, with the version before each departure); the factors topic's are every version
 * published, of which the history keeps those the same gate keeps ({@link HistoryGate}, the application's default
 * spacing and tolerance: so a clock following an application that writes no history still gathers one as it reads),
 * and the newest of each node besides: a time past the newest kept version converts with it.
 */
final class FactorHistories {

    /**
     * The heap a version held costs, bytes, with a margin: 204 by the layout; FactorHistoriesFootprintTest's measure,
     * which also counts what the collector leaves around it, gave 216.0 (196–198 and, on another day, 205.7–208.1
     * before versions had a slot for a datasheet bound).
     */
    static final int BYTES_PER_VERSION = 224;
    /** What a datasheet bound adds to a version, bytes, with a margin: 152 by the layout, 157.3 measured. */
    static final int BYTES_PER_DATASHEET = 176;

    /** The history of a node that has none: only read. */
    private static final NodeHistory EMPTY = new NodeHistory(1);
    private static final HistoryGate GATE = new HistoryGate(HistoryGate.DEFAULT_SPACING_S * 1_000_000_000L,
            HistoryGate.DEFAULT_TOLERANCE_US * 1_000L);

    /** The most versions held, all nodes together: fewer once versions carry datasheet bounds. */
    private long budget;
    private boolean datasheets;
    private final long retentionMs;
    private final LongSupplier nowMs;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, NodeHistory> byNode = new HashMap<>();
    /** Every reference's component. */
    private final Map<String, String> componentOf = new HashMap<>();
    /** One string per name, shared by the versions. */
    private final Map<String, String> names = new HashMap<>();
    /** The newest version of each node from the factors topic. */
    private final Map<String, FactorVersion> latest = new HashMap<>();
    private int capacity;

    /**
     * @param budget the most versions held, all nodes together (a node holds 2 at least), while none carries a
     *     datasheet bound
     * @param retentionMs versions published ({@code valid_from_ms}) longer ago than this are dropped; 0 for none
     * @param nowMs the wall clock, ms since the epoch
     */
    FactorHistories(long budget, long retentionMs, LongSupplier nowMs) {
        if (budget < 1 || retentionMs < 0) {
            throw new IllegalArgumentException("budget " + budget + ", retention " + retentionMs);
        }
        this.budget = budget;
        this.retentionMs = retentionMs;
        this.nowMs = nowMs;
        this.capacity = capacityFor(1);
    }

    /** The versions {@code bytes} of heap hold, at least 1. */
    static long versionsWithin(long bytes) {
        return Math.max(1, bytes / BYTES_PER_VERSION);
    }

    /** Adds a record of the history topic: a version of its node, or a tombstone dropping the node's history. */
    void add(FactorRecord r) {
        lock.writeLock().lock();
        try {
            apply(r);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Adds a record of the factors topic: the node's newest version if it is newer, to its history if the gate
     * keeps it (with the version read before it, where the gate keeps that too); or a tombstone.
     */
    void addLatest(FactorRecord r) {
        lock.writeLock().lock();
        try {
            if (r.tombstone()) {
                apply(r);
                return;
            }
            FactorVersion v = version(r.factor());
            FactorVersion before = latest.get(r.node());
            if (before == null || v.number() > before.number()) {
                latest.put(r.node(), v);
            }
            // the version published just before it, where it was read (a node's versions count up by one)
            FactorVersion previous = before != null && before.number() == v.number() - 1 ? before : null;
            NodeHistory h = byNode.get(r.node());
            for (FactorVersion k : GATE.kept(h == null ? null : h.newest(), previous, v)) {
                apply(r.node(), k);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Drops the versions older than the retention, the newest of each node kept; nothing without a retention. */
    void expire() {
        if (retentionMs == 0) {
            return;
        }
        long before = nowMs.getAsLong() - retentionMs;
        lock.writeLock().lock();
        try {
            byNode.values().forEach(h -> h.expireBefore(before));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * {@code localNs} of {@code node}'s clock converted with its history; empty if it has none.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    Optional<ReferenceTime> convert(String node, long localNs) {
        return convert(node, localNs, null);
    }

    /**
     * {@code localNs} of {@code node}'s clock converted to {@code reference}'s time with the versions of that
     * reference in its history (null: whichever answers at that time); empty if there are none.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    Optional<ReferenceTime> convert(String node, long localNs, String reference) {
        lock.readLock().lock();
        try {
            NodeHistory h = byNode.getOrDefault(node, EMPTY);
            FactorVersion newest = latest.get(node);
            HistoricConversion c = reference == null ? h.convert(localNs, newest)
                    : h.convert(localNs, newest, reference);
            return c == null ? Optional.empty()
                    : Optional.of(ReferenceTime.of(node, componentOf.get(c.version().reference()), c));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * {@code localNs} of {@code node}'s clock converted to {@code reference}'s time under the datasheet alone, with
     * the versions around it that carry a datasheet bound ({@link NodeHistory#convertUnderDatasheet}; null reference:
     * that of the version answering {@link #convert(String, long)}); empty if none answers.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    Optional<Conversion> convertUnderDatasheet(String node, long localNs, String reference) {
        lock.readLock().lock();
        try {
            NodeHistory h = byNode.getOrDefault(node, EMPTY);
            FactorVersion newest = latest.get(node);
            String to = reference;
            if (to == null) {
                HistoricConversion c = h.convert(localNs, newest);
                if (c == null) {
                    return Optional.empty();
                }
                to = c.version().reference();
            }
            return Optional.ofNullable(h.convertUnderDatasheet(localNs, newest, to));
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The versions held of {@code node}, oldest first. */
    List<FactorVersion> versions(String node) {
        lock.readLock().lock();
        try {
            NodeHistory h = byNode.get(node);
            return h == null ? List.of() : List.of(h.versions());
        } finally {
            lock.readLock().unlock();
        }
    }

    private void apply(FactorRecord r) {
        if (r.tombstone()) {
            latest.remove(r.node());
            if (byNode.remove(r.node()) != null) {
                resize();
            }
            return;
        }
        apply(r.node(), version(r.factor()));
    }

    /** Adds a version to its node's history. */
    private void apply(String node, FactorVersion v) {
        if (v.datasheet() != null && !datasheets) {
            datasheets = true;
            budget = Math.max(1, budget * BYTES_PER_VERSION / (BYTES_PER_VERSION + BYTES_PER_DATASHEET));
            resize();
        }
        NodeHistory h = byNode.get(node);
        if (h == null) {
            h = new NodeHistory(capacityFor(byNode.size() + 1));
            byNode.put(node, h);
            resize();
        }
        h.add(v);
    }

    /** A record's version, its names shared. */
    private FactorVersion version(PublishedFactor f) {
        String reference = shared(f.reference());
        componentOf.put(reference, shared(f.component()));
        return new FactorVersion(f.version(), reference, f.factor(), f.validFromMs(), f.steadyFromNs(),
                f.datasheet());
    }

    private void resize() {
        int c = capacityFor(byNode.size());
        if (c != capacity) {
            capacity = c;
            byNode.values().forEach(h -> h.setCapacity(c));
        }
    }

    private int capacityFor(int nodes) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(2, budget / Math.max(1, nodes)));
    }

    private String shared(String name) {
        return names.computeIfAbsent(name, n -> n);
    }
}
