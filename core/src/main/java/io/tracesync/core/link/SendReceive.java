package io.tracesync.core.link;

import java.util.Objects;

/** One message: sent by {@code sender} at its clock's {@code sendNs}, received by {@code receiver} at {@code recvNs}. */
public record SendReceive(String sender, long sendNs, String receiver, long recvNs) {

    public SendReceive {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(receiver, "receiver");
        if (sender.isEmpty() || receiver.isEmpty()) {
            throw new IllegalArgumentException("node ids cannot be empty");
        }
        if (sender.equals(receiver)) {
            throw new IllegalArgumentException("a node cannot send to itself: " + sender);
        }
    }

    public LinkKey link() {
        return LinkKey.between(sender, receiver);
    }

    /** Feeds this message to its link's synchronizer. */
    public PairEffect applyTo(ConvexHullLink link) {
        return sender.compareTo(receiver) < 0 ? link.addAtoB(sendNs, recvNs) : link.addBtoA(sendNs, recvNs);
    }
}
