package io.tracesync.streams.network;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The summaries of a region's links arrived since its last emission, as written ({@link RegionInput}), the last per
 * link, in the order of each link's first: at the emission they are read and reach the region together. A link is
 * found by its names' bytes in a table of the links waiting (open addressing, linear probing; a slot holds the
 * names' hash beside the entry, so a probe past other links reads nothing else), its names compared with a copy
 * kept side by side with the other links' — not with the record it replaces, long out of the caches —, without
 * reading the record or looking its nodes up among the region's.
 */
final class PendingInputs {

    private RegionInput[] entries = new RegionInput[16];
    private int size;
    /** Each entry's names, a's bytes then b's, from {@code namesAt[e]}, a's {@code aLengths[e]} long. */
    private byte[] names = new byte[256];
    private int[] namesAt = new int[17];
    private int[] aLengths = new int[16];
    /** Per slot: the link's hash in the high half, its entry + 1 in the low half; 0 if empty. */
    private long[] slots = new long[32];

    /** Holds {@code in}, a summary as written; true if none of its link's was waiting. */
    boolean add(RegionInput in) {
        if (2 * (size + 1) > slots.length) {
            rehash(2 * slots.length);
        }
        int h = in.linkHash();
        int mask = slots.length - 1;
        for (int i = slot(h, mask); ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == 0) {
                append(in);
                slots[i] = (long) h << 32 | size;
                return true;
            }
            if ((int) (s >>> 32) == h) {
                int e = (int) s - 1;
                if (in.hasNames(names, namesAt[e], aLengths[e], namesAt[e + 1])) {
                    entries[e] = in;
                    return false;
                }
            }
        }
    }

    private void append(RegionInput in) {
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, 2 * size);
            aLengths = Arrays.copyOf(aLengths, 2 * size);
            namesAt = Arrays.copyOf(namesAt, 2 * size + 1);
        }
        int at = namesAt[size];
        int end = at + in.namesLength();
        if (end > names.length) {
            names = Arrays.copyOf(names, Math.max(end, 2 * names.length));
        }
        aLengths[size] = in.copyNames(names, at);
        entries[size++] = in;
        namesAt[size] = end;
    }

    /** Gives {@code taker} each link's last summary in the order of the links' first, and empties. */
    void drain(Consumer<RegionInput> taker) {
        for (int i = 0; i < size; i++) {
            RegionInput in = entries[i];
            entries[i] = null;
            taker.accept(in);
        }
        size = 0;
        Arrays.fill(slots, 0);
    }

    /** How many links have a summary waiting. */
    int size() {
        return size;
    }

    private void rehash(int capacity) {
        long[] old = slots;
        slots = new long[capacity];
        int mask = capacity - 1;
        for (long s : old) {
            if (s != 0) {
                int i = slot((int) (s >>> 32), mask);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = s;
            }
        }
    }

    private static int slot(int hash, int mask) {
        int h = hash * 0x9E3779B9;
        return (h ^ h >>> 16) & mask;
    }
}
