package io.tracesync.streams.matcher;

/**
 * What one generation of the matcher's store holds (§3.6.1's rotating tables): its entries (segment keys), their
 * hashes, and its flows still unmatched. Dropped whole when the generation expires, as its segment is.
 */
final class Generation {

    final KeyHashes keys = new KeyHashes();
    long entries;
    long unmatched;

    /** A new entry (segment key) of this generation. */
    void add(long hash) {
        keys.add(hash);
        entries++;
    }
}
