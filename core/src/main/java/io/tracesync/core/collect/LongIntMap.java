package io.tracesync.core.collect;

import java.util.function.IntConsumer;

/**
 * A map from long keys to positive int values, open addressing with linear probing and backward-shift deletion.
 * Key and value share one 16-byte slot of a single array, so a lookup usually costs one cache miss; no boxing.
 * 0 means absent. Keys are spread by a multiplicative hash.
 */
public final class LongIntMap {

    /** Slot i: key at 2i, value at 2i + 1 (0: empty). */
    private long[] table = new long[32];
    private int size;

    public int get(long key) {
        int mask = capacity() - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long value = table[2 * i + 1];
            if (value == 0) {
                return 0;
            }
            if (table[2 * i] == key) {
                return (int) value;
            }
        }
    }

    /** Maps key to value &gt; 0, replacing any previous value. */
    public void put(long key, int value) {
        if (2 * (size + 1) > capacity()) {
            rehash(2 * capacity());
        }
        int mask = capacity() - 1;
        int i = slot(key, mask);
        while (table[2 * i + 1] != 0) {
            if (table[2 * i] == key) {
                table[2 * i + 1] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        table[2 * i] = key;
        table[2 * i + 1] = value;
        size++;
    }

    public void remove(long key) {
        int mask = capacity() - 1;
        int i = slot(key, mask);
        while (table[2 * i + 1] != 0 && table[2 * i] != key) {
            i = (i + 1) & mask;
        }
        if (table[2 * i + 1] == 0) {
            return;
        }
        size--;
        // shift later entries of the probe run back so that no lookup meets a hole before its key
        int hole = i;
        for (int j = (i + 1) & mask; table[2 * j + 1] != 0; j = (j + 1) & mask) {
            int home = slot(table[2 * j], mask);
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                table[2 * hole] = table[2 * j];
                table[2 * hole + 1] = table[2 * j + 1];
                hole = j;
            }
        }
        table[2 * hole + 1] = 0;
    }

    public int size() {
        return size;
    }

    /** Calls action for every value. */
    public void forEachValue(IntConsumer action) {
        for (int i = 1; i < table.length; i += 2) {
            if (table[i] != 0) {
                action.accept((int) table[i]);
            }
        }
    }

    private int capacity() {
        return table.length >> 1;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void rehash(int capacity) {
        long[] old = table;
        table = new long[2 * capacity];
        size = 0;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                put(old[i], (int) old[i + 1]);
            }
        }
    }
}
