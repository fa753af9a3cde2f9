package io.tracesync.streams.network;

import io.tracesync.avro.LinkSummary;
import io.tracesync.core.link.LinkKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The summaries of a network's links arrived since its last emission, the last per link, in the order of each
 * link's first: at the emission they reach the network core together, one update per link however many summaries it
 * sent. A link taking part is found by its id ({@link io.tracesync.core.network.NetworkSync#edge}), which no update
 * changes between two emissions: its last summary waits in an array by id — a map keyed by link, of hundreds of
 * thousands of entries, costs a few cache misses a summary —; a link without one (new, or not taking part) waits
 * in a list, found by its key.
 */
final class PendingSummaries {

    /** Takes a summary in: {@code id} its link's, 0 for a link without one. */
    interface Taker {
        void take(LinkSummary s, int id);
    }

    private LinkSummary[] byId = new LinkSummary[0];
    /** Each link's entry in the order of its first summary: its id, or {@code −1 − k}, the k-th of {@code news}. */
    private int[] order = new int[16];
    private int links;
    private final List<LinkSummary> news = new ArrayList<>();
    private final Map<LinkKey, Integer> newsIndex = new HashMap<>();

    /**
     * Holds {@code s}, the latest summary of the link {@code key}, whose id is {@code id} (0: none); true if none of
     * the link's was waiting.
     */
    boolean add(int id, LinkKey key, LinkSummary s) {
        if (id != 0) {
            if (id >= byId.length) {
                byId = Arrays.copyOf(byId, Math.max(id + 1, 2 * byId.length));
            }
            boolean first = byId[id] == null;
            if (first) {
                pend(id);
            }
            byId[id] = s;
            return first;
        }
        Integer k = newsIndex.putIfAbsent(key, news.size());
        if (k == null) {
            pend(-1 - news.size());
            news.add(s);
            return true;
        }
        news.set(k, s);
        return false;
    }

    /**
     * Gives {@code taker} each link's last summary in the order of the links' first, and empties. An id stays its
     * link's until the link's own summary takes it out of the network, so the ids held stay right through the pass.
     */
    void drain(Taker taker) {
        for (int i = 0; i < links; i++) {
            int e = order[i];
            if (e >= 0) {
                LinkSummary s = byId[e];
                byId[e] = null;
                taker.take(s, e);
            } else {
                taker.take(news.get(-1 - e), 0);
            }
        }
        clear();
    }

    /** How many links have a summary waiting. */
    int links() {
        return links;
    }

    void clear() {
        for (int i = 0; i < links; i++) {
            if (order[i] >= 0) {
                byId[order[i]] = null;
            }
        }
        links = 0;
        news.clear();
        newsIndex.clear();
    }

    private void pend(int entry) {
        if (links == order.length) {
            order = Arrays.copyOf(order, 2 * order.length);
        }
        order[links++] = entry;
    }
}
