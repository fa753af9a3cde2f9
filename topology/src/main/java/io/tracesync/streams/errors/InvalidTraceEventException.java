package io.tracesync.streams.errors;

/** A trace event that cannot be used; its message is the reason written to the dead-letter topic. */
public final class InvalidTraceEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidTraceEventException(String reason) {
        super(reason);
    }
}
