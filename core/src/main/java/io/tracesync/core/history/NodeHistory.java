package io.tracesync.core.history;

import io.tracesync.core.network.Conversion;
import java.util.Arrays;

/**
 * One node's factor versions, each answering for the local times from its anchor to the next version's anchor, and
 * the conversion of any local time with them ({@link HistoricConversion}). A version anchored at or before versions
 * of lower numbers supersedes them (the later publication answers for those times), so the versions held increase
 * in anchor and in number alike, whatever order they are added in (a reader of two topics, or of a topic from the
 * start after the newest version, gets the history publication order would have given). At most {@code capacity}
 * are held: beyond it, and when they expire, the oldest go first; the newest always stays. A version held for a
 * while and superseded later may have taken an older one's place, so once the capacity is reached the order of
 * addition decides how many of the oldest remain; once older versions were dropped, none older than those held is
 * taken back, so the versions held are always the newest of those added. Not thread-safe.
 */
public final class NodeHistory {

    private FactorVersion[] ring;
    private int head;
    private int size;
    private int capacity;
    /** Whether versions older than those held were dropped (capacity, expiry). */
    private boolean truncated;

    /** @param capacity the most versions held, at least 1 */
    public NodeHistory(int capacity) {
        setCapacity(capacity);
        ring = new FactorVersion[Math.min(capacity, 16)];
    }

    /** Changes the most versions held; the oldest beyond it are dropped at once. */
    public void setCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
        while (size > capacity) {
            dropOldest();
        }
    }

    /**
     * Adds a version.
     *
     * @return false, changing nothing, if its number is held already, a version of a higher number anchored at or
     *     before it supersedes it, it is older than every version held while the capacity is reached or after older
     *     ones were dropped (taken back, it would stand beside a hole where those were), or it is
     *     {@linkplain FactorVersion#timeless timeless} and versions are held
     */
    public boolean add(FactorVersion v) {
        if (v.timeless() && size > 0) {
            return false;
        }
        int at = size;
        while (at > 0 && get(at - 1).number() >= v.number()) {
            if (get(at - 1).number() == v.number()) {
                return false;
            }
            at--;
        }
        if (at < size && get(at).anchorNs() <= v.anchorNs() || at == 0 && (size == capacity || truncated)) {
            return false;
        }
        int from = at;
        while (from > 0 && get(from - 1).anchorNs() >= v.anchorNs()) {
            from--;
        }
        remove(from, at);
        insert(from, v);
        if (size > capacity) {
            dropOldest();
        }
        return true;
    }

    /** Removes the versions at [from, to), moving those after them down. */
    private void remove(int from, int to) {
        int n = to - from;
        if (n == 0) {
            return;
        }
        for (int i = from; i + n < size; i++) {
            ring[index(i)] = get(i + n);
        }
        for (int i = size - n; i < size; i++) {
            ring[index(i)] = null;
        }
        size -= n;
    }

    /** Inserts a version at i, moving those from i on up. */
    private void insert(int i, FactorVersion v) {
        if (size == ring.length) {
            grow();
        }
        for (int j = size; j > i; j--) {
            ring[index(j)] = get(j - 1);
        }
        ring[index(i)] = v;
        size++;
    }

    /** Drops the versions published before {@code ms} (ms since the epoch), but never the newest. */
    public void expireBefore(long ms) {
        while (size > 1 && get(0).publishedMs() < ms) {
            dropOldest();
        }
    }

    /**
     * Local time t converted: with the versions on both sides of t where it lies between two, else with the nearest
     * one's bounds carried to t; null if no version is held.
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public HistoricConversion convert(long t) {
        if (size == 0) {
            return null;
        }
        int i = floor(t);
        return HistoricConversion.of(i < 0 ? null : get(i), i + 1 < size ? get(i + 1) : null, t, truncated);
    }

    /**
     * Local time t converted with the versions held around it and {@code newest} beside them: a version published
     * after them that the history did not keep (null: none); null if there is no version at all.
     */
    public HistoricConversion convert(long t, FactorVersion newest) {
        if (newest == null || size > 0 && newest().number() >= newest.number()) {
            return convert(t);
        }
        return around(t, inForce(t), next(t), newest);
    }

    /**
     * Local time t converted to {@code reference}'s time with the versions of that reference alone — those held
     * around t and {@code newest} (as {@link #convert(long, FactorVersion)}) — so that the times of one span or
     * trace share one clock across a change of reference; null if no version has that reference.
     */
    public HistoricConversion convert(long t, FactorVersion newest, String reference) {
        return around(t, ofReference(t, newest, reference));
    }

    /**
     * Local time t converted to {@code reference}'s time under the datasheet alone: the intersection of the datasheet
     * bounds, each carried to t, of the versions of that reference held around t and {@code newest} (as
     * {@link #convert(long, FactorVersion, String)} takes them) that carry one and rest on t's stretch of the
     * clocks — a version anchored before t unless a later one places a step between its anchor and t, one anchored
     * after t if its stretch began by t. Each holds at any time of its stretch, so their intersection does; no
     * chord is drawn between them (the datasheet bounds each clock's rate, not how fast it changes). The estimate is
     * the nearest version's, kept inside the interval. Null where no version qualifies, or the intervals have no
     * common point (a clock step the links did not place).
     *
     * @throws ArithmeticException if a result does not fit a long
     */
    public Conversion convertUnderDatasheet(long t, FactorVersion newest, String reference) {
        return DatasheetIntersection.of(t, ofReference(t, newest, reference));
    }

    /**
     * The versions of {@code reference} around t: the newest held anchored at or before it, the oldest held after
     * it, and {@code newest} if it is newer than those held; each null where there is none.
     */
    private FactorVersion[] ofReference(long t, FactorVersion newest, String reference) {
        int i = floor(t);
        FactorVersion before = null;
        for (int j = i; j >= 0 && before == null; j--) {
            before = get(j).reference().equals(reference) ? get(j) : null;
        }
        FactorVersion after = null;
        for (int j = i + 1; j < size && after == null; j++) {
            after = get(j).reference().equals(reference) ? get(j) : null;
        }
        boolean newer = newest != null && newest.reference().equals(reference)
                && (size == 0 || newest().number() < newest.number());
        return new FactorVersion[] {before, after, newer ? newest : null};
    }

    /** Local time t converted with these versions alone (nulls left out), as a history of them; null if none. */
    public static HistoricConversion around(long t, FactorVersion... versions) {
        return of(versions).convert(t);
    }

    /**
     * Local time t converted to {@code reference}'s time under the datasheet alone with these versions alone (nulls
     * left out), as a history of them ({@link #convertUnderDatasheet}); null if none answers.
     */
    public static Conversion aroundUnderDatasheet(long t, String reference, FactorVersion... versions) {
        return of(versions).convertUnderDatasheet(t, null, reference);
    }

    /** A history of these versions alone, nulls left out. */
    private static NodeHistory of(FactorVersion... versions) {
        NodeHistory h = new NodeHistory(versions.length);
        for (FactorVersion v : versions) {
            if (v != null) {
                h.add(v);
            }
        }
        return h;
    }

    /** The version in force at t: the newest anchored at or before it, or null. */
    public FactorVersion inForce(long t) {
        int i = floor(t);
        return i < 0 ? null : get(i);
    }

    /** The oldest version anchored after t, or null. */
    public FactorVersion next(long t) {
        int i = floor(t) + 1;
        return i < size ? get(i) : null;
    }

    /** The newest version, or null. */
    public FactorVersion newest() {
        return size == 0 ? null : get(size - 1);
    }

    /** The oldest version held, or null. */
    public FactorVersion oldest() {
        return size == 0 ? null : get(0);
    }

    /** How many versions are held. */
    public int size() {
        return size;
    }

    /** Whether older versions than those held were dropped. */
    public boolean truncated() {
        return truncated;
    }

    /** The versions held, oldest first. */
    public FactorVersion[] versions() {
        FactorVersion[] out = new FactorVersion[size];
        for (int i = 0; i < size; i++) {
            out[i] = get(i);
        }
        return out;
    }

    /** The index of the newest version anchored at or before t, or −1. */
    private int floor(long t) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (get(mid).anchorNs() <= t) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return hi;
    }

    private FactorVersion get(int i) {
        return ring[index(i)];
    }

    private int index(int i) {
        int j = head + i;
        return j >= ring.length ? j - ring.length : j;
    }

    private void dropOldest() {
        ring[head] = null;
        head = index(1);
        size--;
        truncated = true;
    }

    private void grow() {
        FactorVersion[] bigger = new FactorVersion[(int) Math.min(capacity + 1L, 2L * ring.length)];
        for (int i = 0; i < size; i++) {
            bigger[i] = get(i);
        }
        ring = bigger;
        head = 0;
    }

    @Override
    public String toString() {
        return "NodeHistory" + Arrays.toString(versions());
    }
}
