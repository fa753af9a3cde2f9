package io.tracesync.faults;

import java.util.Locale;

/** What a fault run does to the application's instances or its broker. */
public enum Fault {
    /** One instance, chosen at random, killed with SIGKILL and started again on its state. */
    KILL("an instance killed with SIGKILL and started again"),
    /** The instance that runs the one-partition network task killed with SIGKILL and started again. */
    KILL_NETWORK_OWNER("the network task's instance killed with SIGKILL and started again"),
    /** Two instances killed at once and started again. */
    KILL_TWO("two instances killed at once and started again"),
    /** An instance killed, its state directory deleted, and started again: it restores from the changelogs. */
    WIPE_STATE("an instance killed, its state directory deleted, started again"),
    /** An instance paused (SIGSTOP) past its session timeout, then resumed: the group moves its tasks meanwhile. */
    PAUSE("an instance paused (SIGSTOP) past its session timeout, then resumed"),
    /** The broker killed with SIGKILL and restarted on its log directory; only with a broker the run started. */
    BROKER_CRASH("the broker killed with SIGKILL and restarted on its log directory");

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The name users write: {@code kill-network-owner}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Fault parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (Fault f : values()) {
            if (v.equals(f.label())) {
                return f;
            }
        }
        StringBuilder known = new StringBuilder();
        for (Fault f : values()) {
            known.append(known.isEmpty() ? "" : ", ").append(f.label());
        }
        throw new IllegalArgumentException("'" + value + "' is not a fault (" + known + ")");
    }
}
