package io.tracesync.streams.health;

import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.Settings;
import java.util.Locale;
import java.util.concurrent.ExecutionException;

/**
 * The application's group as the broker tells it ({@link ApplicationGroup}): the rebalance protocol it runs under
 * ({@code classic} or {@code streams}), its state ({@code STABLE} once no rebalance is under way), its members and
 * the standby replicas each stateful task is to have — under the streams protocol the group's configuration on the
 * broker, not the instance's {@code num.standby.replicas}.
 *
 * @param error why the broker did not answer, else null (then the other fields are empty)
 */
public record GroupStatus(String protocol, String state, int members, int standbyReplicas, String error) {

    /** Asks the broker; a failure is the answer's {@code error}, for a health check must answer. */
    public static GroupStatus of(ApplicationGroup group, Settings settings) {
        try {
            ApplicationGroup.Description d = group.describe();
            return new GroupStatus(d.protocol().name().toLowerCase(Locale.ROOT), d.state().name(),
                    d.members().size(), group.standbyReplicas(settings), null);
        } catch (ExecutionException e) {
            return new GroupStatus(null, null, 0, 0, String.valueOf(e.getCause().getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new GroupStatus(null, null, 0, 0, "interrupted");
        }
    }
}
