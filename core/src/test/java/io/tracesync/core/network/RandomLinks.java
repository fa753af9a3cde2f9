package io.tracesync.core.network;

import io.tracesync.core.link.LinkKey;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random connected link sets over named nodes, for the exact network tests. */
final class RandomLinks {

    private RandomLinks() {
    }

    /** A random spanning tree of {@code names} and up to as many links again between random pairs. */
    static List<LinkKey> connecting(List<String> names, SplittableRandom r) {
        int n = names.size();
        List<LinkKey> keys = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            keys.add(LinkKey.between(names.get(r.nextInt(i)), names.get(i)));
        }
        for (int extra = r.nextInt(n); extra > 0; extra--) {
            int i = r.nextInt(n);
            int j = r.nextInt(n);
            if (i != j) {
                keys.add(LinkKey.between(names.get(i), names.get(j)));
            }
        }
        return keys;
    }
}
