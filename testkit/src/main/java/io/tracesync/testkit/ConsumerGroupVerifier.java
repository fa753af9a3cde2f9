package io.tracesync.testkit;

import io.tracesync.streams.GroupLag;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker says of an application's consumer group (its {@code application.id}): its state, how far it is
 * behind on some topics ({@link GroupLag}), whether it has finished them, and which instance holds a partition.
 */
public final class ConsumerGroupVerifier {

    private static final Duration POLL = Duration.ofMillis(200);

    private final Admin admin;
    private final String group;

    public ConsumerGroupVerifier(Admin admin, String group) {
        this.admin = admin;
        this.group = group;
    }

    public GroupState state() throws ExecutionException, InterruptedException {
        return description().groupState();
    }

    /** The records of {@code topics} the group has not committed. */
    public long lag(Collection<String> topics) throws ExecutionException, InterruptedException {
        return GroupLag.of(admin, group, topics);
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
                throw new IllegalStateException("group " + group + " is still " + lag + " records behind on "
                        + topics.size() + " topics after " + timeout.toSeconds() + " s; " + why.get());
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * Of these instances, the one whose consumer holds {@code partition} (matched by its {@code group.instance.id}:
     * Kafka Streams gives each stream thread's consumer that id with "-&lt;thread&gt;" appended); null if none does.
     */
    public InstanceProcess holder(TopicPartition partition, Collection<InstanceProcess> instances)
            throws ExecutionException, InterruptedException {
        for (MemberDescription m : description().members()) {
            if (m.assignment().topicPartitions().contains(partition)) {
                String member = m.groupInstanceId().orElse("");
                return instances.stream().filter(i -> i.groupInstanceId() != null && (member.equals(
                        i.groupInstanceId()) || member.startsWith(i.groupInstanceId() + "-"))).findFirst()
                        .orElse(null);
            }
        }
        return null;
    }

    private ConsumerGroupDescription description() throws ExecutionException, InterruptedException {
        return admin.describeConsumerGroups(List.of(group)).all().get().get(group);
    }
}
