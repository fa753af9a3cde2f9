package io.tracesync.eval;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Recorded factors by node and time: which factor was in force for a node at a true time. */
final class FactorHistory {

    private final Map<String, TreeMap<Long, FactorRow>> byNode = new HashMap<>();

    FactorHistory(List<FactorRow> rows) {
        rows.forEach(r -> byNode.computeIfAbsent(r.node(), k -> new TreeMap<>()).put(r.trueNs(), r));
    }

    /** The latest factor of {@code node} drained at or before {@code trueNs}, or null. */
    FactorRow at(String node, long trueNs) {
        TreeMap<Long, FactorRow> m = byNode.get(node);
        Map.Entry<Long, FactorRow> e = m == null ? null : m.floorEntry(trueNs);
        return e == null ? null : e.getValue();
    }

    /** When the factor of {@code row} stopped being in force (the node's next drain), or {@code endNs}. */
    long until(FactorRow row, long endNs) {
        Long next = byNode.get(row.node()).higherKey(row.trueNs());
        return next == null ? endNs : next;
    }
}
