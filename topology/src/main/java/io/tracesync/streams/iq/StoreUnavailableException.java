package io.tracesync.streams.iq;

/** A store cannot answer now (the instance starts, rebalances or restores, or the task moved): ask again later. */
public final class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message) {
        super(message);
    }

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
