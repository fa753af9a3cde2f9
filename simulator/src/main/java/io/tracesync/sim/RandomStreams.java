package io.tracesync.sim;

import java.util.SplittableRandom;

/**
 * Independent random streams derived from the seed by purpose and index (a node's clock, a link's traffic, ...),
 * so that what one part of the simulation draws never shifts another: adding a node, an output format or a
 * statistic does not change the rest. Each stream is seeded by a strong 64-bit mix of (seed, purpose, index) and
 * then split once, which gives it its own increment (gamma) as well as its own state.
 */
final class RandomStreams {

    /** What a stream is for; the ordinal is part of the derivation, so only append. */
    enum Purpose { TOPOLOGY, NODE, WANDER, LINK, TRAFFIC, POLL_PHASE, CLOCK_EVENTS }

    private final long seed;

    RandomStreams(long seed) {
        this.seed = seed;
    }

    SplittableRandom stream(Purpose purpose, long index) {
        long h = mix(seed ^ 0x9E3779B97F4A7C15L * (purpose.ordinal() + 1));
        return new SplittableRandom(mix(h + index * 0xD1B54A32D192ED03L)).split();
    }

    /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection of 64-bit values with full avalanche. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
