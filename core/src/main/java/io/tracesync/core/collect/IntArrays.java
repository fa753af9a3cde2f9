package io.tracesync.core.collect;

import java.util.Arrays;

/** Growing int arrays by doubling. */
public final class IntArrays {

    private IntArrays() {
    }

    /** a, or a copy at least twice as long, holding at least n ints. */
    public static int[] grow(int[] a, int n) {
        return n <= a.length ? a : Arrays.copyOf(a, Math.max(n, 2 * a.length));
    }
}
