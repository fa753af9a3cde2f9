package io.tracesync.core.network;

/**
 * A node's answer: its component, named by the component's reference node, and its factor to that reference.
 */
public record NodeFactor(String node, String reference, Factor factor) {
}
