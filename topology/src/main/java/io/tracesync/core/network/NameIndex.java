package io.tracesync.core.network;

/**
 * Node names to vertex ids (&gt; 0), insert only: open addressing with linear probing in two flat arrays, so a
 * lookup touches one slot of each instead of a hash-map entry and a boxed id. The same name instance hits without
 * comparing characters.
 */
final class NameIndex {

    private String[] keys = new String[16];
    private int[] values = new int[16];
    private int size;

    /** The id of name, or 0. */
    int get(String name) {
        int mask = keys.length - 1;
        for (int i = slot(name, mask); ; i = (i + 1) & mask) {
            String k = keys[i];
            if (k == null) {
                return 0;
            }
            if (k == name || k.equals(name)) {
                return values[i];
            }
        }
    }

    /** Maps a name not yet present to id &gt; 0. */
    void put(String name, int id) {
        if (2 * (size + 1) > keys.length) {
            rehash(2 * keys.length);
        }
        int mask = keys.length - 1;
        int i = slot(name, mask);
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = name;
        values[i] = id;
        size++;
    }

    private void rehash(int capacity) {
        String[] oldKeys = keys;
        int[] oldValues = values;
        keys = new String[capacity];
        values = new int[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = slot(oldKeys[j], mask);
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    private static int slot(String name, int mask) {
        int h = name.hashCode() * 0x9E3779B9;
        return (h ^ h >>> 16) & mask;
    }

    int size() {
        return size;
    }

    /** Every name held, in no set order. */
    String[] names() {
        String[] out = new String[size];
        int n = 0;
        for (String k : keys) {
            if (k != null) {
                out[n++] = k;
            }
        }
        return out;
    }
}
