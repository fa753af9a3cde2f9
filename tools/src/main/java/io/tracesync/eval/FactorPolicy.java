package io.tracesync.eval;

import io.tracesync.core.link.ConvexHullLink;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One way of turning the replayed messages into factors (tracesync itself or a baseline), driven by
 * {@link Replay} in true receive order beside the others, so that all of them see the same data at the same times.
 */
public interface FactorPolicy {

    /** A message, in true receive order, after the link core has taken it into {@code link}. */
    default void accept(SendReceive pair, ConvexHullLink link) {
    }

    /**
     * The factors that changed at true time {@code trueNs}, sorted by node; {@code links} is the link core's state
     * (read only), {@code changed} the links that took a message since the previous drain.
     */
    List<FactorRow> drainAt(long trueNs, Map<LinkKey, ConvexHullLink> links, Set<LinkKey> changed);
}
