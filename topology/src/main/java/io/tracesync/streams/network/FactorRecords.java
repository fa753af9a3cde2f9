package io.tracesync.streams.network;

import io.tracesync.avro.Component;
import io.tracesync.avro.ExcludedLink;
import io.tracesync.avro.DatasheetBound;
import io.tracesync.avro.SyncFactor;
import io.tracesync.avro.TreeLink;
import io.tracesync.avro.TreeSnapshot;
import io.tracesync.core.link.LinkKey;
import io.tracesync.core.network.AnchoredFactor;
import io.tracesync.core.network.Factor;
import io.tracesync.core.network.LinkEstimate;
import io.tracesync.core.network.Restarts;
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

    /** A factor without a known restart ({@code steady_from_ns} null). */
    public static SyncFactor of(AnchoredFactor f, long validFromMs, long version) {
        return of(f, validFromMs, version, Long.MIN_VALUE);
    }

    /** @param steadyFromNs where the factor's stretch of the clocks begins ({@link Restarts}), MIN_VALUE: none known */
    public static SyncFactor of(AnchoredFactor f, long validFromMs, long version, long steadyFromNs) {
        return of(f, validFromMs, version, steadyFromNs, null);
    }

    /**
     * @param datasheet the node's factor under the datasheet alone, or null: carried where it is bounded and to the
     *                  same reference
     */
    public static SyncFactor of(AnchoredFactor f, long validFromMs, long version, long steadyFromNs,
            AnchoredFactor datasheet) {
        Factor x = f.factor();
        return SyncFactor.newBuilder()
                .setNode(f.node())
                .setComponent(f.reference())
                .setReference(f.reference())
                .setMap(LinkSummaries.clockMap(x.toReference()))
                .setUpPs(bound(x.upPs()))
                .setDownPs(bound(x.downPs()))
                .setBoundNs(x.bounded() ? Math.nextUp(Math.max(x.upPs(), x.downPs()) / 1000.0) : null)
                .setAnchorNs(x.anchorNs())
                .setGrowthAbove(x.growthAbove())
                .setGrowthBelow(x.growthBelow())
                .setCurvature(x.curvature() == 0 ? null : x.curvature())
                .setStep(x.step() == 0 ? null : x.step())
                .setEvaluatedAtNs(f.evaluatedAtNs())
                .setMethod(f.method().label())
                .setTreeUpPs(bound(f.treeUpPs()))
                .setTreeDownPs(bound(f.treeDownPs()))
                .setValidFromMs(validFromMs)
                .setVersion(version)
                .setSteadyFromNs(steadyFromNs == Long.MIN_VALUE ? null : steadyFromNs)
                .setDatasheet(datasheet(f, datasheet))
                .build();
    }

    private static DatasheetBound datasheet(AnchoredFactor f, AnchoredFactor d) {
        if (d == null || !d.reference().equals(f.reference()) || !d.factor().bounded()) {
            return null;
        }
        Factor x = d.factor();
        return new DatasheetBound(LinkSummaries.clockMap(x.toReference()), x.upPs(), x.downPs(), x.anchorNs(),
                x.growthAbove(), x.growthBelow());
    }

    private static Long bound(long ps) {
        return ps == LinkEstimate.UNBOUNDED ? null : ps;
    }

    public static TreeSnapshot tree(List<TreeEdge> edges, List<AnchoredFactor> factors, List<LinkKey> excluded,
            long version, long takenMs) {
        Map<String, Integer> sizes = new TreeMap<>();
        for (AnchoredFactor f : factors) {
            sizes.merge(f.reference(), 1, Integer::sum);
        }
        List<Component> components = new ArrayList<>(sizes.size());
        sizes.forEach((ref, n) -> components.add(new Component(ref, n)));
        List<TreeLink> links = new ArrayList<>(edges.size());
        for (TreeEdge e : edges) {
            links.add(new TreeLink(e.a(), e.b(), e.weight()));
        }
        return new TreeSnapshot(version, takenMs, components, links,
                excluded.stream().map(k -> new ExcludedLink(k.a(), k.b())).toList());
    }
}
