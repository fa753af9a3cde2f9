package io.tracesync.eval;

import java.util.OptionalLong;

/** When a link saw its first pair and when it first became ACCURATE (true ns; empty if never). */
public record LinkTiming(long firstPairTrueNs, OptionalLong firstAccurateTrueNs) {

    /** Time from the first pair to the first ACCURATE state, in ns; empty if the link never became ACCURATE. */
    public OptionalLong timeToAccurateNs() {
        return firstAccurateTrueNs.isPresent()
                ? OptionalLong.of(firstAccurateTrueNs.getAsLong() - firstPairTrueNs) : OptionalLong.empty();
    }
}
