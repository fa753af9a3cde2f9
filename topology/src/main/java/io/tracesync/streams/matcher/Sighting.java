package io.tracesync.streams.matcher;

/** One node's record of a packet: which node, when (its own clock, ns). */
record Sighting(String node, long tsNs) {
}
