package io.tracesync.sim;

/**
 * One TCP connection between two nodes: the client opens it (ephemeral port) to the server's port. On a
 * request/response link the client sends requests at Poisson times and the server answers each after a service
 * time; on a one-way link only the client sends. Minimum delays are per direction (asymmetric).
 *
 * @param ratePerS new messages (requests, or one-way segments) per second
 * @param minForwardNs minimum one-way delay client → server
 * @param minBackwardNs minimum one-way delay server → client
 * @param clientIsn initial sequence number client → server (32-bit)
 * @param serverIsn initial sequence number server → client (32-bit)
 */
public record LinkSpec(int index, int client, int server, int hops, boolean oneWay, double ratePerS,
                       long minForwardNs, long minBackwardNs, int clientPort, int serverPort, long clientIsn,
                       long serverIsn) {

    /** The server's port of every connection. */
    static final int SERVER_PORT = 8080;

    /** Minimum delay of the direction starting at the client ({@code forward}) or at the server. */
    public long minDelayNs(boolean forward) {
        return forward ? minForwardNs : minBackwardNs;
    }
}
