package io.tracesync.streams.matcher;

/**
 * The 64-bit hashes of the segment keys one generation of the matcher's store holds, so that an event whose key a
 * generation does not hold reads nothing from that generation's segment: a send that arrives first then reads
 * nothing at all. A hash it holds costs the read (for another key of equal hash, a read that finds nothing); a key
 * it holds is never missed. Open addressing with linear probing, no removal: a generation's set is dropped whole
 * when the generation expires, as its segment is.
 */
final class KeyHashes {

    private long[] table = new long[1024];
    private int size;

    /** FNV-1a over the key's chars, then MurmurHash3's 64-bit finalizer; never 0 (an empty slot). */
    static long hash(String key) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }

    boolean contains(long hash) {
        int mask = table.length - 1;
        for (int i = (int) hash & mask; table[i] != 0; i = (i + 1) & mask) {
            if (table[i] == hash) {
                return true;
            }
        }
        return false;
    }

    void add(long hash) {
        if (2 * (size + 1) > table.length) {
            long[] old = table;
            table = new long[2 * old.length];
            size = 0;
            for (long h : old) {
                if (h != 0) {
                    insert(h);
                }
            }
        }
        insert(hash);
    }

    private void insert(long hash) {
        int mask = table.length - 1;
        int i = (int) hash & mask;
        while (table[i] != 0) {
            if (table[i] == hash) {
                return;
            }
            i = (i + 1) & mask;
        }
        table[i] = hash;
        size++;
    }
}
