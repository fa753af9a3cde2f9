package io.tracesync.core.network;

import java.util.Arrays;

/** Growing int arrays by doubling. */
final class IntArrays {

    private IntArrays() {
    }

    /** a, or a copy at least twice as long, holding at least n ints. */
    static int[] grow(int[] a, int n) {
        return n <= a.length ? a : Arrays.copyOf(a, Math.max(n, 2 * a.length));
    }
}
