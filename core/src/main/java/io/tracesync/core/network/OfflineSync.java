package io.tracesync.core.network;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.LinkOptions;
import io.tracesync.core.link.SendReceive;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole answer from a finished set of pairs: every link's hull from its pairs in the order given, as the
 * streaming application applies them, then the network once. The streaming application must agree with it, node
 * for node; {@code tracesync sync-pairs} feeds each link its pairs in a's clock order, and agrees with it on pairs
 * given in that order.
 */
public final class OfflineSync {

    private OfflineSync() {
    }

    /** Every node's factor to its component's reference, by node, as {@link NetworkSync#evaluate(Long)} gives it. */
    public static Map<String, NodeFactor> factors(Iterable<SendReceive> pairs, LinkOptions link,
            NetworkOptions network) {
        Map<LinkKey, ConvexHullLink> links = new TreeMap<>();
        for (SendReceive p : pairs) {
            p.applyTo(links.computeIfAbsent(p.link(), k -> new ConvexHullLink(link)));
        }
        NetworkSync net = new NetworkSync(network);
        links.forEach((k, l) -> net.update(LinkEstimate.of(k, l)));
        net.drain();
        Map<String, NodeFactor> out = new TreeMap<>();
        net.evaluate(null).factors().forEach(f -> out.put(f.node(), f.nodeFactor()));
        return out;
    }
}
