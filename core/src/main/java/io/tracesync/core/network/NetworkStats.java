package io.tracesync.core.network;

/**
 * What the network core did, by the operation types of [Jabbarifar 2013, Tables 4.1/5.1] and the extensions for
 * increases and removals. Time spent on reference nodes is measured only when {@link #timing} is on (benchmarks).
 */
public final class NetworkStats {

    /** Two new vertices linked: a new tree. */
    public long newTrees;
    /** A new vertex linked to an existing tree. */
    public long insertions;
    /** Two trees of two or more vertices joined. */
    public long joins;
    /** A link closing a cycle that replaced the heaviest edge of the cycle ("stay", "examined-link"). */
    public long cycleKept;
    /** A link closing a cycle that stayed out of the forest ("remove", "ignored-link"). */
    public long cycleDropped;
    /** Of those, links heavier than every tree edge, settled without a path query. */
    public long cycleBoundDropped;
    public long decreases;
    public long increases;
    public long removals;
    /** Tree edges replaced after an increase or a removal. */
    public long replacements;
    /** Trees split for lack of a replacement. */
    public long splits;
    /** Vertices enumerated while looking for replacements. */
    public long replacementScans;
    /** Changes of a tree's reference node. */
    public long referenceChanges;
    /** Factors recomputed, and factors that actually changed (and were reported). */
    public long factorsComputed;
    public long factorsChanged;
    public long referenceNanos;
    boolean timing;

    /** Path queries on the link-cut trees: every cycle kept, and the cycles dropped that the bounds let through. */
    public long pathQueries() {
        return cycleKept + cycleDropped - cycleBoundDropped;
    }

    long clock() {
        return timing ? System.nanoTime() : 0;
    }

    /** Turns on measuring the time spent on reference nodes. */
    public void enableTiming() {
        timing = true;
    }
}
