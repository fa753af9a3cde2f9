package io.tracesync.testkit;

import io.tracesync.streams.ApplicationGroup;
import io.tracesync.streams.Settings;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker says of an application's group ({@link ApplicationGroup}: a consumer group or a streams group):
 * its state, how far it is behind on some topics, whether it has finished them, and which instance holds a
 * partition.
 */
public final class GroupVerifier {

    private static final Duration POLL = Duration.ofMillis(200);

    private final ApplicationGroup group;

    public GroupVerifier(ApplicationGroup group) {
        this.group = group;
    }

    public GroupState state() throws ExecutionException, InterruptedException {
        return group.describe().state();
    }

    /** The standby replicas each stateful task is to have ({@link ApplicationGroup#standbyReplicas}). */
    public int standbyReplicas(Settings settings) throws ExecutionException, InterruptedException {
        return group.standbyReplicas(settings);
    }

    /** The records of {@code topics} the group has not committed. */
    public long lag(Collection<String> topics) throws ExecutionException, InterruptedException {
        return group.lag(topics);
    }

    /** Whether the group has committed every record of {@code topics}. */
    public boolean hasFinished(Collection<String> topics) throws ExecutionException, InterruptedException {
        return lag(topics) == 0;
    }

    /**
     * Waits until the group has committed every record of {@code topics}; {@code check} runs at every look (it
     * throws to give up, e.g. when an instance exited), {@code why} adds to the failure's message once the time is
     * out.
     */
    public void awaitFinished(Collection<String> topics, Duration timeout, Runnable check, Supplier<String> why)
            throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long lag;
        while ((lag = lag(topics)) > 0) {
            check.run();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("group " + group.id() + " is still " + lag + " records behind on "
                        + topics.size() + " topics after " + timeout.toSeconds() + " s; " + why.get());
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * Of these instances, the one whose member runs the task of {@code partition} (matched by its
     * {@code group.instance.id}: Kafka Streams gives each stream thread's member that id with "-&lt;thread&gt;"
     * appended); null if none does.
     */
    public InstanceProcess holder(TopicPartition partition, Collection<InstanceProcess> instances)
            throws ExecutionException, InterruptedException {
        return group.describe().holder(partition).map(m -> instances.stream().filter(i -> i.groupInstanceId() != null
                && (m.name().equals(i.groupInstanceId()) || m.name().startsWith(i.groupInstanceId() + "-")))
                .findFirst().orElse(null)).orElse(null);
    }
}
