package io.tracesync.eval;

import java.util.List;
import java.util.OptionalLong;

/**
 * When a link saw its first pair, when it first became ACCURATE (true ns; empty if never), and the true receive
 * times of the pairs that found its answering corridor infeasible (FAILED), in order.
 */
public record LinkTiming(long firstPairTrueNs, OptionalLong firstAccurateTrueNs, List<Long> failureTrueNs) {

    public LinkTiming {
        failureTrueNs = List.copyOf(failureTrueNs);
    }

    /** The first failure at or after true time {@code t}, if any. */
    public OptionalLong firstFailureFrom(long t) {
        int lo = 0;
        int hi = failureTrueNs.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (failureTrueNs.get(mid) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < failureTrueNs.size() ? OptionalLong.of(failureTrueNs.get(lo)) : OptionalLong.empty();
    }

    /** Time from the first pair to the first ACCURATE state, in ns; empty if the link never became ACCURATE. */
    public OptionalLong timeToAccurateNs() {
        return firstAccurateTrueNs.isPresent()
                ? OptionalLong.of(firstAccurateTrueNs.getAsLong() - firstPairTrueNs) : OptionalLong.empty();
    }
}
