package io.tracesync.core.network;

import io.tracesync.core.numeric.ClockMap;
import java.util.Arrays;

/**
 * Slots each holding a clock map with its up and down bounds, the content of a {@link Factor} or a {@link Hop},
 * in flat arrays: four doubles for the map (layout of {@link ClockMap#store}), two longs for the bounds (up,
 * down). Composed, compared and copied without allocating; objects only on request.
 */
final class BoundedMaps {

    /**
     * Leading padding that puts slot 0 at byte 64 of each array object (16-byte headers): in large arrays, which
     * start aligned, slots 2k and 2k + 1 then share one cache line of maps and half a line of bounds.
     */
    private static final int BASE = 6;

    private double[] maps;
    private long[] bounds;

    BoundedMaps(int slots) {
        maps = new double[map(slots)];
        bounds = new long[bound(slots)];
    }

    private static int map(int s) {
        return BASE + 4 * s;
    }

    private static int bound(int s) {
        return BASE + 2 * s;
    }

    /** Makes room for slot s. */
    void ensure(int s) {
        int slots = (bounds.length - BASE) / 2;
        if (s >= slots) {
            int n = Math.max(s + 1, 2 * slots);
            maps = Arrays.copyOf(maps, map(n));
            bounds = Arrays.copyOf(bounds, bound(n));
        }
    }

    void set(int s, ClockMap map, long upPs, long downPs) {
        map.store(maps, map(s));
        bounds[bound(s)] = upPs;
        bounds[bound(s) + 1] = downPs;
    }

    /** Slot s := {@link Factor#child}: the factor in slot p of parents extended by the hop in slot h of hops. */
    void setChild(int s, BoundedMaps parents, int p, BoundedMaps hops, int h) {
        int pm = map(p);
        int pb = bound(p);
        double scale = Factor.boundScale(parents.maps[pm], parents.maps[pm + 1]);
        ClockMap.andThen(hops.maps, map(h), parents.maps, pm, maps, map(s));
        bounds[bound(s)] = Factor.childBound(parents.bounds[pb], hops.bounds[bound(h)], scale);
        bounds[bound(s) + 1] = Factor.childBound(parents.bounds[pb + 1], hops.bounds[bound(h) + 1], scale);
    }

    /** Whether slot s equals slot t of o as {@link Factor#equals} would tell. */
    boolean same(int s, BoundedMaps o, int t) {
        int i = map(s);
        int j = map(t);
        return maps[i] == o.maps[j] && maps[i + 1] == o.maps[j + 1] && maps[i + 2] == o.maps[j + 2]
                && maps[i + 3] == o.maps[j + 3] && bounds[bound(s)] == o.bounds[bound(t)]
                && bounds[bound(s) + 1] == o.bounds[bound(t) + 1];
    }

    /** Slot s := slot t of o. */
    void copy(int s, BoundedMaps o, int t) {
        int i = map(s);
        int j = map(t);
        maps[i] = o.maps[j];
        maps[i + 1] = o.maps[j + 1];
        maps[i + 2] = o.maps[j + 2];
        maps[i + 3] = o.maps[j + 3];
        bounds[bound(s)] = o.bounds[bound(t)];
        bounds[bound(s) + 1] = o.bounds[bound(t) + 1];
    }

    long touch(int s) {
        return (long) maps[map(s)] + bounds[bound(s)];
    }

    Factor factor(int s) {
        return new Factor(ClockMap.load(maps, map(s)), bounds[bound(s)], bounds[bound(s) + 1]);
    }
}
