package io.tracesync.streams.network;

import io.tracesync.avro.LinkSummary;

/**
 * What a region task stores of a link it applied ({@link RegionLinkSerde}): the summary as it came, and the weight
 * its spanning forest holds for the link where that is not the link's rule's (NaN: the rule's), so that a restart
 * rebuilds the same forest.
 */
public record RegionLink(RegionInput input, double forestWeight) {

    /** The summary, with the forest's weight where it is not the rule's (as {@code /links} shows it). */
    public LinkSummary summary() {
        LinkSummary s = LinkSummary.newBuilder(input.value().getSummary()).build();
        s.setForestWeight(Double.isNaN(forestWeight) ? null : forestWeight);
        return s;
    }
}
