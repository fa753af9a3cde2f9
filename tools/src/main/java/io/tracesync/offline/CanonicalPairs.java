package io.tracesync.offline;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A finished set of matched pairs, fed to each link's core in one canonical order: by a's clock, then a-&gt;b
 * before b-&gt;a, then by b's clock. With a sliding horizon a link's epochs are laid from the pairs it has seen, so
 * the order of its pairs matters; this one makes {@code sync-pairs} give one answer for one set of pairs, whatever
 * their order in the file.
 */
final class CanonicalPairs {

    /** One pair in link coordinates: x on a's clock, y on b's. */
    private record Point(long x, long y, boolean aToB) implements Comparable<Point> {

        @Override
        public int compareTo(Point o) {
            int c = Long.compare(x, o.x);
            if (c == 0) {
                c = Boolean.compare(o.aToB, aToB);
            }
            return c != 0 ? c : Long.compare(y, o.y);
        }
    }

    private final Map<LinkKey, List<Point>> byLink = new TreeMap<>();
    private boolean sorted;

    void add(SendReceive p) {
        sorted = false;
        boolean aToB = p.sender().compareTo(p.receiver()) < 0;
        byLink.computeIfAbsent(p.link(), k -> new ArrayList<>())
                .add(aToB ? new Point(p.sendNs(), p.recvNs(), true) : new Point(p.recvNs(), p.sendNs(), false));
    }

    /** Every link's core after all its pairs, in link order. */
    Map<LinkKey, ConvexHullLink> links(LinkOptions options) {
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        byLink.keySet().forEach(key -> links.put(key, link(key, options, Long.MAX_VALUE)));
        return links;
    }

    /** A link's core after its pairs up to time {@code lastX} of a's clock. */
    ConvexHullLink link(LinkKey key, LinkOptions options, long lastX) {
        List<Point> points = byLink.get(key);
        if (!sorted) {
            byLink.values().forEach(ps -> ps.sort(null));
            sorted = true;
        }
        ConvexHullLink link = new ConvexHullLink(options);
        for (Point p : points) {
            if (p.x() > lastX) {
                break;
            }
            if (p.aToB()) {
                link.addAtoB(p.x(), p.y());
            } else {
                link.addBtoA(p.y(), p.x());
            }
        }
        return link;
    }
}
