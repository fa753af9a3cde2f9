package io.tracesync.client;

import io.tracesync.core.history.FactorVersion;
import io.tracesync.core.history.HistoricConversion;
import io.tracesync.core.history.NodeHistory;
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
 * <p>A version held costs 196 bytes of heap with compressed references (the JVM's default below 32 GB of heap),
 * counted as {@value #BYTES_PER_VERSION}: 40 for the {@link FactorVersion}, 64 its factor, 24 its map, 2 × 32 the
 * map's double-doubles, 4 its slot in the node's ring; the reference's name is shared. FactorHistoriesFootprintTest
 * measures it.
 *
 * <p>The compacted topic lacks the versions compaction removed, so while the history topic is read up to the end
 * found at the start ({@link #hold}) the factors topic's records wait, the newest of each node: one arriving first
 * would make the node's history refuse the older versions still to come.
 */
final class FactorHistories {

    /** The heap a version held costs, bytes, rounded up (196 measured by FactorHistoriesFootprintTest). */
    static final int BYTES_PER_VERSION = 200;

    private final long budget;
    private final long retentionMs;
    private final LongSupplier nowMs;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, NodeHistory> byNode = new HashMap<>();
    /** Every reference's component. */
    private final Map<String, String> componentOf = new HashMap<>();
    /** One string per name, shared by the versions. */
    private final Map<String, String> names = new HashMap<>();
    /** The newest record of each node from the factors topic, while it waits for the history topic. */
    private final Map<String, FactorRecord> held = new HashMap<>();
    private boolean holding;
    private int capacity;

    /**
     * @param budget the most versions held, all nodes together (a node holds 2 at least)
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

    /** Adds a record of the factors topic, as {@link #add}, or holds it while {@link #hold} is in force. */
    void addLatest(FactorRecord r) {
        lock.writeLock().lock();
        try {
            if (holding && !r.tombstone()) {
                held.merge(r.node(), r, (a, b) -> b.factor().version() > a.factor().version() ? b : a);
                return;
            }
            held.remove(r.node());
            apply(r);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Holds the factors topic's records back until {@link #release}: the history topic is being read. */
    void hold() {
        lock.writeLock().lock();
        try {
            holding = true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds the records held back, and those that follow at once. */
    void release() {
        lock.writeLock().lock();
        try {
            holding = false;
            held.values().forEach(this::apply);
            held.clear();
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
        lock.readLock().lock();
        try {
            NodeHistory h = byNode.get(node);
            HistoricConversion c = h == null ? null : h.convert(localNs);
            return c == null ? Optional.empty()
                    : Optional.of(ReferenceTime.of(node, componentOf.get(c.version().reference()), c));
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
            if (byNode.remove(r.node()) != null) {
                resize();
            }
            return;
        }
        PublishedFactor f = r.factor();
        String reference = shared(f.reference());
        componentOf.put(reference, shared(f.component()));
        NodeHistory h = byNode.get(r.node());
        if (h == null) {
            h = new NodeHistory(capacityFor(byNode.size() + 1));
            byNode.put(r.node(), h);
            resize();
        }
        h.add(new FactorVersion(f.version(), reference, f.factor(), f.validFromMs()));
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
