package io.tracesync.core.network;

import io.tracesync.core.link.LinkQuality;
import java.util.Objects;

/**
 * How links are ranked and which take part. ACCURATE links always do; APPROXIMATE ones only when included, with
 * the fixed weight {@code approximateWeight} (default +infinity: used only where no accurate path exists), and
 * their one-sided corridor makes every bound through them unbounded. Each tree's reference is chosen by
 * {@code referenceRule}; a pinned reference, when in a tree, is that tree's reference instead. {@code method} is how
 * {@link NetworkSync#evaluate(Long)} obtains the factors: from every link (default) or along the tree. The forest
 * keeps a link's weight while a new one lies within a factor {@code weightSpread} of it (1, the default: every
 * change counts; with the tree method too, whose answers come from the tree's links; see
 * {@link NetworkSync#update(int, int, LinkEstimate)}). {@code excursionPs} is the links' offset excursion
 * ({@code link.excursion}, ps; 0: none), which every bound of a node but the reference holds on each side: the
 * factor gate compares changes with the bounds without it ({@link FactorGate}).
 */
public record NetworkOptions(LinkWeight weight, boolean includeApproximate, double approximateWeight,
        String pinnedReference, NetworkMethod method, ReferenceRule referenceRule, double weightSpread,
        long excursionPs) {

    public static final NetworkOptions DEFAULT = new NetworkOptions(LinkWeight.SLOPE_ACCURACY, false,
            Double.POSITIVE_INFINITY, null, NetworkMethod.ALL_LINKS, ReferenceRule.MOST_LINKS, 1, 0);

    public NetworkOptions {
        Objects.requireNonNull(weight, "weight");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(referenceRule, "referenceRule");
        if (!(approximateWeight >= 0)) {
            throw new IllegalArgumentException("approximate weight must be >= 0: " + approximateWeight);
        }
        if (!(weightSpread >= 1 && weightSpread < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("weight spread must be finite and >= 1: " + weightSpread);
        }
        if (excursionPs < 0) {
            throw new IllegalArgumentException("the excursion must be >= 0: " + excursionPs);
        }
    }

    public NetworkOptions withWeight(LinkWeight w) {
        return new NetworkOptions(w, includeApproximate, approximateWeight, pinnedReference, method,
                referenceRule, weightSpread, excursionPs);
    }

    public NetworkOptions withApproximate(double w) {
        return new NetworkOptions(weight, true, w, pinnedReference, method, referenceRule, weightSpread, excursionPs);
    }

    public NetworkOptions withPinnedReference(String node) {
        return new NetworkOptions(weight, includeApproximate, approximateWeight, node, method,
                referenceRule, weightSpread, excursionPs);
    }

    public NetworkOptions withMethod(NetworkMethod m) {
        return new NetworkOptions(weight, includeApproximate, approximateWeight, pinnedReference, m,
                referenceRule, weightSpread, excursionPs);
    }

    public NetworkOptions withReferenceRule(ReferenceRule r) {
        return new NetworkOptions(weight, includeApproximate, approximateWeight, pinnedReference, method, r,
                weightSpread, excursionPs);
    }

    /** These options with the links' offset excursion Φ ({@code link.excursion}) in ps. */
    public NetworkOptions withExcursion(long ps) {
        return new NetworkOptions(weight, includeApproximate, approximateWeight, pinnedReference, method,
                referenceRule, weightSpread, ps);
    }

    public NetworkOptions withWeightSpread(double spread) {
        return new NetworkOptions(weight, includeApproximate, approximateWeight, pinnedReference, method,
                referenceRule, spread, excursionPs);
    }

    /** The link's weight, or NaN when it does not take part in the spanning forest. */
    public double weightOf(LinkEstimate e) {
        if (e.quality() == LinkQuality.APPROXIMATE) {
            return includeApproximate ? approximateWeight : Double.NaN;
        }
        if (e.quality() != LinkQuality.ACCURATE) {
            return Double.NaN;
        }
        double w = switch (weight) {
            case SLOPE_ACCURACY -> e.slopeAccuracy();
            case BOUND_WIDTH -> e.widestPs() == LinkEstimate.UNBOUNDED ? Double.POSITIVE_INFINITY : e.widestPs();
        };
        if (!(w >= 0)) {
            throw new IllegalArgumentException("link " + e.key() + " has no valid " + weight + ": " + w);
        }
        return w + 0.0; // -0.0 becomes 0.0, which EdgeOrder would rank apart
    }
}
