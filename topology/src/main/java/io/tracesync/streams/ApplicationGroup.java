package io.tracesync.streams;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupSubtopologyDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * An application's group on the broker (its {@code application.id}) under either rebalance protocol: a consumer
 * group (classic) or, with {@code group.protocol=streams}, a streams group [KIP-1071], which the broker describes
 * and whose offsets it lists through calls of its own and whose members hold tasks rather than partitions. The
 * group is read first as the settings' protocol says and as the other when the broker answers that it is not of
 * that kind (a group migrates between the two once it is empty), so the answer is the broker's.
 */
public final class ApplicationGroup {

    /** The kind of group on the broker. */
    public enum Protocol {
        CLASSIC, STREAMS
    }

    /**
     * One member: its {@code group.instance.id} (static membership; else its client id), the partitions of the
     * tasks it runs (a streams group's tasks mapped to their source topics' partitions) and its standby tasks.
     */
    public record Member(String name, Set<TopicPartition> active, int standbyTasks) {
    }

    /** The group as the broker describes it; {@link GroupState#DEAD} with no member when it does not exist. */
    public record Description(Protocol protocol, GroupState state, List<Member> members) {

        /** The member whose tasks read {@code partition}, if any. */
        public Optional<Member> holder(TopicPartition partition) {
            return members.stream().filter(m -> m.active().contains(partition)).findFirst();
        }
    }

    /** Kafka Streams' keys whose part a streams group's configuration takes, and the group's key for each. */
    private static final Map<String, String> GROUP_KEYS = Map.of(
            StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "streams.num.standby.replicas",
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "streams.session.timeout.ms",
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "streams.heartbeat.interval.ms",
            StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, "streams.acceptable.recovery.lag");

    private final Admin admin;
    private final String group;
    /** The kind of group to ask for first: the settings', then the one the broker last described. */
    private Protocol first;

    public ApplicationGroup(Admin admin, String group, Protocol expected) {
        this.admin = admin;
        this.group = group;
        this.first = expected;
    }

    /** The group of these settings' application, read first as their {@code group.protocol} says. */
    public static ApplicationGroup of(Admin admin, Settings settings) {
        return new ApplicationGroup(admin, settings.get("application.id"), protocolOf(settings));
    }

    /** The protocol these settings ask for ({@code group.protocol}, classic by default). */
    public static Protocol protocolOf(Settings settings) {
        String p = settings.streamsProperties().getProperty(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        return p.toLowerCase(Locale.ROOT).equals("streams") ? Protocol.STREAMS : Protocol.CLASSIC;
    }

    public String id() {
        return group;
    }

    /**
     * What {@link #configure} set on the group, and each key whose value from the settings was not set as given:
     * refused by the broker (with its reason) or raised to the brokers' minimum.
     */
    public record Configured(Map<String, String> set, Map<String, String> refused) {
    }

    /**
     * Under the streams protocol the broker, not the instances, holds what Kafka Streams' own keys say under the
     * classic one [KIP-1071]: the group's configuration takes each of these keys the settings give, so they keep
     * their meaning. A key the broker refuses (a value outside its {@code group.streams.*} range, which names the
     * key) is left out and the others set without it, so that a heartbeat below the broker's minimum does not cost
     * the session timeout and the standbys too; a refusal that names no key (no right to alter the group's
     * configuration) is thrown.
     */
    public Configured configure(Settings settings) throws ExecutionException, InterruptedException {
        Properties given = settings.streamsProperties();
        Map<String, String> set = new TreeMap<>();
        GROUP_KEYS.forEach((own, groupKey) -> {
            String v = given.getProperty(StreamsConfig.mainConsumerPrefix(own), given.getProperty(own));
            if (v != null) {
                set.put(groupKey, v);
            }
        });
        Map<String, String> refused = new TreeMap<>();
        raiseToBrokersMinimum(set, "streams.heartbeat.interval.ms", "group.streams.min.heartbeat.interval.ms",
                refused);
        while (!set.isEmpty()) {
            try {
                admin.incrementalAlterConfigs(Map.of(resource(), set.entrySet().stream().map(e -> new AlterConfigOp(
                        new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET)).toList())).all().get();
                break;
            } catch (ExecutionException e) {
                String why = String.valueOf(e.getCause().getMessage());
                List<String> named = set.keySet().stream().filter(why::contains).toList();
                if (named.isEmpty()) {
                    throw e;
                }
                named.forEach(k -> refused.put(k, set.remove(k) + " refused, the broker's own value stays: " + why));
            }
        }
        return new Configured(set, refused);
    }

    /**
     * A value below the brokers' minimum for it raised to that minimum (when a broker tells its configuration), and
     * the raise noted among the refusals: a heartbeat the broker refuses would leave the broker's own (5 s by
     * default), above a short session timeout, which the broker then refuses too.
     */
    private void raiseToBrokersMinimum(Map<String, String> set, String key, String minimumKey,
            Map<String, String> refused) throws InterruptedException {
        String given = set.get(key);
        if (given == null) {
            return;
        }
        try {
            String broker = admin.describeCluster().nodes().get().iterator().next().idString();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, broker);
            ConfigEntry minimum = admin.describeConfigs(List.of(resource)).all().get().get(resource).get(minimumKey);
            if (minimum != null && minimum.value() != null
                    && Long.parseLong(given) < Long.parseLong(minimum.value())) {
                set.put(key, minimum.value());
                refused.put(key, given + " raised to the brokers' minimum " + minimumKey + "=" + minimum.value());
            }
        } catch (ExecutionException | RuntimeException e) {
            // the brokers' configuration is not ours to read: the value goes as given
        }
    }

    /**
     * How long the broker waits for a silent member before it takes its tasks away: a consumer group's members
     * say it ({@code session.timeout.ms}), a streams group's is the group's configuration.
     */
    public long sessionTimeoutMs(Settings settings) throws ExecutionException, InterruptedException {
        return Long.parseLong(own(settings, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "45000"));
    }

    /** How many standby replicas each stateful task has: {@code num.standby.replicas}, or the streams group's. */
    public int standbyReplicas(Settings settings) throws ExecutionException, InterruptedException {
        return Integer.parseInt(own(settings, StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0"));
    }

    /** A key of Kafka Streams' as the settings give it, or under the streams protocol as the group's config has it. */
    private String own(Settings settings, String key, String byDefault) throws ExecutionException,
            InterruptedException {
        if (describe().protocol() == Protocol.STREAMS) {
            ConfigEntry e = admin.describeConfigs(List.of(resource())).all().get().get(resource())
                    .get(GROUP_KEYS.get(key));
            return e != null && e.value() != null ? e.value() : byDefault;
        }
        return settings.streamsProperties().getProperty(key, byDefault);
    }

    private ConfigResource resource() {
        return new ConfigResource(ConfigResource.Type.GROUP, group);
    }

    /** The group's state and members; a group that does not exist is DEAD and has none. */
    public Description describe() throws ExecutionException, InterruptedException {
        Description d = asked(p -> p == Protocol.STREAMS ? streams() : classic());
        return d != null ? d : new Description(first, GroupState.DEAD, List.of());
    }

    /** The group's committed offsets; none when the group does not exist. */
    public Map<TopicPartition, OffsetAndMetadata> committed() throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> c = asked(p -> withoutNulls(p == Protocol.STREAMS
                ? admin.listStreamsGroupOffsets(Map.of(group, new ListStreamsGroupOffsetsSpec()))
                        .partitionsToOffsetAndMetadata(group).get()
                : admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()));
        return c != null ? c : Map.of();
    }

    /** A question the broker answers for one kind of group: null, or GroupIdNotFoundException, when it is not one. */
    private interface Question<T> {
        T ask(Protocol p) throws ExecutionException, InterruptedException;
    }

    /** The first answer of the two kinds, {@link #first} first, which becomes the kind that answered; else null. */
    private <T> T asked(Question<T> question) throws ExecutionException, InterruptedException {
        for (Protocol p : order()) {
            try {
                T answer = question.ask(p);
                if (answer != null) {
                    first = p;
                    return answer;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    throw e;
                }
            }
        }
        return null;
    }

    /**
     * The records of {@code topics} the group has not committed: per partition the latest offset minus the committed
     * one, a partition with none committed counting from its earliest offset. Exact for topics written without
     * transactions (the trace topics), whose latest offset is a record's and not a transaction marker's.
     */
    public long lag(Collection<String> topics) throws ExecutionException, InterruptedException {
        if (topics.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(d -> d.partitions().forEach(p -> {
            TopicPartition tp = new TopicPartition(d.name(), p.partition());
            latest.put(tp, OffsetSpec.latest());
            earliest.put(tp, OffsetSpec.earliest());
        }));
        Map<TopicPartition, OffsetAndMetadata> committed = committed();
        var ends = admin.listOffsets(latest).all().get();
        var starts = admin.listOffsets(earliest).all().get();
        long lag = 0;
        for (TopicPartition tp : latest.keySet()) {
            OffsetAndMetadata c = committed.get(tp);
            long from = c == null ? starts.get(tp).offset() : Math.max(c.offset(), starts.get(tp).offset());
            lag += Math.max(0, ends.get(tp).offset() - from);
        }
        return lag;
    }

    /**
     * Commits these offsets for the group, which must have no member; a group that does not exist yet becomes a
     * consumer group, which a streams instance converts when it joins.
     */
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets) throws ExecutionException,
            InterruptedException {
        if (isStreamsGroup()) {
            admin.alterStreamsGroupOffsets(group, offsets).all().get();
        } else {
            admin.alterConsumerGroupOffsets(group, offsets).all().get();
        }
    }

    /** Deletes the group's committed offsets of these partitions; the group must have no member. */
    public void forget(Set<TopicPartition> partitions) throws ExecutionException, InterruptedException {
        if (isStreamsGroup()) {
            admin.deleteStreamsGroupOffsets(group, partitions).all().get();
        } else {
            admin.deleteConsumerGroupOffsets(group, partitions).all().get();
        }
    }

    private boolean isStreamsGroup() throws ExecutionException, InterruptedException {
        Description d = describe();
        return d.protocol() == Protocol.STREAMS && d.state() != GroupState.DEAD;
    }

    private List<Protocol> order() {
        return first == Protocol.STREAMS ? List.of(Protocol.STREAMS, Protocol.CLASSIC)
                : List.of(Protocol.CLASSIC, Protocol.STREAMS);
    }

    /** A consumer group's description, or null when the broker has no group of that id. */
    private Description classic() throws ExecutionException, InterruptedException {
        ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        if (d.groupState() == GroupState.DEAD) {
            return null;
        }
        List<Member> members = new ArrayList<>();
        for (MemberDescription m : d.members()) {
            members.add(new Member(m.groupInstanceId().orElse(m.clientId()), Set.copyOf(m.assignment()
                    .topicPartitions()), 0));
        }
        return new Description(Protocol.CLASSIC, d.groupState(), members);
    }

    /** A streams group's description: each member's active tasks as their source partitions. */
    private Description streams() throws ExecutionException, InterruptedException {
        StreamsGroupDescription d = admin.describeStreamsGroups(List.of(group)).all().get().get(group);
        if (d.groupState() == GroupState.DEAD) {
            return null;
        }
        Map<String, List<String>> sources = new HashMap<>();
        for (StreamsGroupSubtopologyDescription s : d.subtopologies()) {
            List<String> topics = new ArrayList<>(s.sourceTopics());
            topics.addAll(s.repartitionSourceTopics().keySet());
            sources.put(s.subtopologyId(), topics);
        }
        List<Member> members = new ArrayList<>();
        for (StreamsGroupMemberDescription m : d.members()) {
            StreamsGroupMemberAssignment a = m.assignment();
            members.add(new Member(m.instanceId().orElse(m.clientId()), partitions(a.activeTasks(), sources),
                    a.standbyTasks().stream().mapToInt(t -> t.partitions().size()).sum()));
        }
        return new Description(Protocol.STREAMS, d.groupState(), members);
    }

    private static Set<TopicPartition> partitions(Collection<StreamsGroupMemberAssignment.TaskIds> tasks,
            Map<String, List<String>> sources) {
        Set<TopicPartition> out = new HashSet<>();
        for (StreamsGroupMemberAssignment.TaskIds t : tasks) {
            for (String topic : sources.getOrDefault(t.subtopologyId(), List.of())) {
                t.partitions().forEach(p -> out.add(new TopicPartition(topic, p)));
            }
        }
        return Set.copyOf(out);
    }

    /** The offsets listed, without a partition's absent one (the admin client maps it to null). */
    private static Map<TopicPartition, OffsetAndMetadata> withoutNulls(Map<TopicPartition, OffsetAndMetadata> c) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        c.forEach((tp, o) -> {
            if (o != null) {
                out.put(tp, o);
            }
        });
        return out;
    }
}
