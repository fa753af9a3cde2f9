package io.tracesync.core.network;

import java.util.Arrays;

/**
 * A map from long keys to positive int values, open addressing with linear probing and backward-shift deletion:
 * one probe sequence in two flat arrays, no boxing. 0 means absent. Keys are spread by a multiplicative hash.
 */
final class LongIntMap {

    private long[] keys = new long[16];
    private int[] values = new int[16];
    private int size;

    int get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (values[i] == 0) {
                return 0;
            }
            if (keys[i] == key) {
                return values[i];
            }
        }
    }

    /** Maps key to value &gt; 0, replacing any previous value. */
    void put(long key, int value) {
        if (2 * (size + 1) > keys.length) {
            rehash(2 * keys.length);
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != 0) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    void remove(long key) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == 0) {
            return;
        }
        size--;
        // shift later entries of the probe run back so that no lookup meets a hole before its key
        int hole = i;
        for (int j = (i + 1) & mask; values[j] != 0; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = 0;
    }

    int size() {
        return size;
    }

    /** Calls action for every value. */
    void forEachValue(java.util.function.IntConsumer action) {
        for (int v : values) {
            if (v != 0) {
                action.accept(v);
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void rehash(int capacity) {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[capacity];
        values = new int[capacity];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != 0) {
                put(oldKeys[i], oldValues[i]);
            }
        }
        Arrays.fill(oldValues, 0);
    }
}
