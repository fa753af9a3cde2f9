package io.tracesync.client;

/** Told of every change of a node's factor; called on the {@link SyncClock}'s thread, in topic order. */
@FunctionalInterface
public interface FactorListener {

    /**
     * A node's factor changed.
     *
     * @param node the node
     * @param previous the factor it replaces, or null if the node had none
     * @param current the new factor, or null if a tombstone removed the node
     */
    void changed(String node, PublishedFactor previous, PublishedFactor current);
}
