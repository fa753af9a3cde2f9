package io.tracesync.console;

/**
 * A failure the user can fix by a setting or an argument (a service that does not answer, a port in use): ends a
 * command with one {@code error: …} line and exit code 2 ({@link UserErrors}).
 */
public final class UserError extends RuntimeException {

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
