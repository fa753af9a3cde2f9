package io.tracesync.core.collect;

/**
 * Node names to vertex ids (&gt; 0), insert only: open addressing with linear probing. A slot holds the name's
 * hash and its id side by side in one long, so a probe past other names compares hashes without reading their
 * strings (a look-up of a new name reads no string at all, almost always); the same name instance hits without
 * comparing characters.
 */
public final class NameIndex {

    private String[] keys = new String[16];
    /** Per slot: the key's hash in the high half, its id in the low half; 0 if empty. */
    private long[] slots = new long[16];
    private int size;

    /** The id of name, or 0. */
    public int get(String name) {
        int h = name.hashCode();
        int mask = slots.length - 1;
        for (int i = slot(h, mask); ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == 0) {
                return 0;
            }
            if ((int) (s >>> 32) == h) {
                String k = keys[i];
                if (k == name || k.equals(name)) {
                    return (int) s;
                }
            }
        }
    }

    /** Maps a name not yet present to id &gt; 0. */
    public void put(String name, int id) {
        if (2 * (size + 1) > slots.length) {
            rehash(2 * slots.length);
        }
        place(name, (long) name.hashCode() << 32 | id);
        size++;
    }

    private void place(String name, long s) {
        int mask = slots.length - 1;
        int i = slot((int) (s >>> 32), mask);
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        keys[i] = name;
        slots[i] = s;
    }

    private void rehash(int capacity) {
        String[] oldKeys = keys;
        long[] oldSlots = slots;
        keys = new String[capacity];
        slots = new long[capacity];
        for (int j = 0; j < oldSlots.length; j++) {
            if (oldSlots[j] != 0) {
                place(oldKeys[j], oldSlots[j]);
            }
        }
    }

    private static int slot(int hash, int mask) {
        int h = hash * 0x9E3779B9;
        return (h ^ h >>> 16) & mask;
    }

    public int size() {
        return size;
    }

    /** Every name held, in no set order. */
    public String[] names() {
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
