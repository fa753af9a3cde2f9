package io.tracesync.core.link;

import io.tracesync.core.numeric.Exact;
import java.util.Arrays;

/**
 * One half convex hull of a link's message points, sorted by x: the lower hull of the a-&gt;b points
 * ({@code side = +1}, they lie above every clock line) or the upper hull of the b-&gt;a points ({@code side = -1},
 * below). {@code side} turns "outer" (away from the clock lines) into "positive", so one code path serves both.
 * Only the part of the hull between the contacts of L_min and L_max is kept ([Jabbarifar 2013, §3.6.4]: hull points
 * outside the current slope range can never matter again).
 */
final class HalfHull {

    final int side;
    long[] xs = new long[8];
    long[] ys = new long[8];
    int size;

    HalfHull(int side) {
        this.side = side;
    }

    long x(int i) {
        return xs[i];
    }

    long y(int i) {
        return ys[i];
    }

    int last() {
        return size - 1;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** side * orientation(a, b, c) for hull vertices or arbitrary points. */
    int turn(long ax, long ay, long bx, long by, long cx, long cy) {
        return side * Exact.orientation(ax, ay, bx, by, cx, cy);
    }

    /**
     * Where p lies relative to this hull inside x-range [x(0), x(last)]: positive outside (beyond the hull), zero on
     * it, negative inside. The caller guarantees x(0) &lt;= px &lt;= x(last).
     */
    int compareInside(long px, long py) {
        int k = floorIndex(px);
        if (xs[k] == px) {
            return side * Long.compare(py, ys[k]);
        }
        return turn(xs[k], ys[k], xs[k + 1], ys[k + 1], px, py);
    }

    /** Index of the last vertex with x &lt;= px (0 if none). */
    int floorIndex(long px) {
        int lo = 0;
        int hi = size - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (xs[mid] <= px) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Inserts p, known to lie strictly inside the hull's envelope, and removes the vertices it makes non-convex
     * (Graham scan vertex addition, both directions since pairs may arrive out of x order).
     */
    void insert(long px, long py) {
        int k = size == 0 ? 0 : floorIndex(px);
        if (size > 0 && xs[k] == px) {
            ys[k] = py;
        } else {
            if (size > 0 && xs[k] < px) {
                k++;
            }
            ensureRoom();
            System.arraycopy(xs, k, xs, k + 1, size - k);
            System.arraycopy(ys, k, ys, k + 1, size - k);
            xs[k] = px;
            ys[k] = py;
            size++;
        }
        int left = k;
        while (left >= 2 && turn(xs[left - 2], ys[left - 2], xs[left - 1], ys[left - 1], px, py) <= 0) {
            left--;
        }
        int right = k;
        while (right + 2 < size && turn(px, py, xs[right + 1], ys[right + 1], xs[right + 2], ys[right + 2]) <= 0) {
            right++;
        }
        removeRange(k + 1, right + 1);
        removeRange(left, k);
    }

    /** Appends a vertex known to extend the chain convexly (state restore). */
    void insertLast(long px, long py) {
        ensureRoom();
        xs[size] = px;
        ys[size] = py;
        size++;
    }

    private void ensureRoom() {
        if (size == xs.length) {
            xs = Arrays.copyOf(xs, size * 2);
            ys = Arrays.copyOf(ys, size * 2);
        }
    }

    /** Removes the vertices with index in [from, to). */
    void removeRange(int from, int to) {
        if (from >= to) {
            return;
        }
        System.arraycopy(xs, to, xs, from, size - to);
        System.arraycopy(ys, to, ys, from, size - to);
        size -= to - from;
    }
}
