package io.tracesync.streams.network;

import io.tracesync.avro.Component;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeLink;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.NodeFactor;
import io.tracesync.core.network.TreeEdge;
import io.tracesync.streams.link.LinkSummaries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The network core's answers as the records of {@code sync.factors} and {@code sync.tree}. */
public final class FactorRecords {

    private FactorRecords() {
    }

    public static SyncFactor of(NodeFactor f, long validFromMs, long version) {
        Factor x = f.factor();
        return SyncFactor.newBuilder()
                .setNode(f.node())
                .setComponent(f.reference())
                .setReference(f.reference())
                .setMap(LinkSummaries.clockMap(x.toReference()))
                .setUpPs(x.upPs() == LinkEstimate.UNBOUNDED ? null : x.upPs())
                .setDownPs(x.downPs() == LinkEstimate.UNBOUNDED ? null : x.downPs())
                .setBoundNs(x.bounded() ? Math.nextUp(Math.max(x.upPs(), x.downPs()) / 1000.0) : null)
                .setValidFromMs(validFromMs)
                .setVersion(version)
                .build();
    }

    /** The factor a record carries. */
    public static Factor factor(SyncFactor r) {
        return new Factor(LinkSummaries.clockMap(r.getMap()),
                r.getUpPs() == null ? LinkEstimate.UNBOUNDED : r.getUpPs(),
                r.getDownPs() == null ? LinkEstimate.UNBOUNDED : r.getDownPs());
    }

    public static TreeSnapshot tree(List<TreeEdge> edges, List<NodeFactor> factors, long version, long takenMs) {
        Map<String, Integer> sizes = new TreeMap<>();
        for (NodeFactor f : factors) {
            sizes.merge(f.reference(), 1, Integer::sum);
        }
        List<Component> components = new ArrayList<>(sizes.size());
        sizes.forEach((ref, n) -> components.add(new Component(ref, n)));
        List<TreeLink> links = new ArrayList<>(edges.size());
        for (TreeEdge e : edges) {
            links.add(new TreeLink(e.a(), e.b(), e.weight()));
        }
        return new TreeSnapshot(version, takenMs, components, links);
    }
}
