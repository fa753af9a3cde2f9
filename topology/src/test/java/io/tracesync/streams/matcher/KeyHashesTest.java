package io.tracesync.streams.matcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class KeyHashesTest {

    /** Every key added is held, through the table's growth; keys never added are not (64-bit hashes: no collision). */
    @Property(tries = 50)
    void holdsWhatWasAddedAndNothingElse(@ForAll @Size(max = 5000) Set<@StringLength(max = 24) String> added,
            @ForAll @Size(max = 2000) Set<@StringLength(max = 24) String> others) {
        KeyHashes keys = new KeyHashes();
        for (String k : added) {
            keys.add(KeyHashes.hash(k));
            keys.add(KeyHashes.hash(k));
        }
        for (String k : added) {
            assertTrue(keys.contains(KeyHashes.hash(k)), k);
        }
        Set<String> absent = new HashSet<>(others);
        absent.removeAll(added);
        for (String k : absent) {
            assertFalse(keys.contains(KeyHashes.hash(k)), k);
        }
    }

    @Property(tries = 20)
    void segmentKeysOfOneConnectionSpreadOverTheTable(@ForAll @Size(min = 1, max = 100) Set<Integer> seqs) {
        KeyHashes keys = new KeyHashes();
        for (int s : seqs) {
            keys.add(KeyHashes.hash(s + ":1000:24"));
        }
        for (int s : seqs) {
            assertTrue(keys.contains(KeyHashes.hash(s + ":1000:24")));
            assertFalse(keys.contains(KeyHashes.hash(s + ":1001:24")));
        }
    }
}
