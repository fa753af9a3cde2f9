package io.tracesync.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * One task of the application, its processor unchanged in Kafka's {@link MockProcessorContext}, run on a virtual
 * wall clock of its own, as on a stream thread of its own: records arrive at a time and are decoded and processed in
 * polls of {@link #POLL} records; the task's clock moves on by the thread CPU each poll, commit and punctuation took,
 * so a task that cannot keep up falls behind (its backlog) as a real one would. The wall-clock punctuations fire when
 * due on that clock, between polls, as Kafka Streams fires them; what the processor forwards goes to {@code out},
 * stamped with the task's clock, once each poll or punctuation is done.
 */
final class VirtualTask<K, V, KO, VO> {

    /** Records per poll: the consumer's default {@code max.poll.records}. */
    static final int POLL = 500;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final MockProcessorContext<KO, VO> context;
    private final Processor<K, V, KO, VO> processor;
    private final Deserializer<K> keys;
    private final Deserializer<V> values;
    private final Runnable commit;
    private final long commitNs;
    private final Punctuations observer;
    private final Out<KO, VO> out;
    /** Each wall-clock punctuation and when it is next due, in the order they were scheduled. */
    private final Map<CapturedPunctuator, Long> due = new LinkedHashMap<>();
    private long clockNs;
    private long nextCommitNs;
    private long processCpuNs;
    private long emitCpuNs;

    /** Called around each punctuation: the stage counts what an emission did. */
    interface Punctuations {
        void before();

        void after();
    }

    /** Receives what the processor forwarded, with the task's clock when it was done. */
    interface Out<KO, VO> {
        void accept(Record<? extends KO, ? extends VO> record, long atNs);
    }

    /** {@code commit} flushes the task's write-back stores, every {@code commitNs} of its clock. */
    VirtualTask(MockProcessorContext<KO, VO> context, Processor<K, V, KO, VO> processor, Deserializer<K> keys,
            Deserializer<V> values, Runnable commit, long commitNs, long startNs, Punctuations observer,
            Out<KO, VO> out) {
        this.context = context;
        this.processor = processor;
        this.keys = keys;
        this.values = values;
        this.commit = commit;
        this.commitNs = commitNs;
        this.observer = observer;
        this.out = out;
        clockNs = startNs;
        nextCommitNs = startNs + commitNs;
        processor.init(context);
        schedule();
    }

    /**
     * Records encoded as their hop carries them, arriving at {@code atNs}: first the punctuations that fell due while
     * the task waited for them, then the records in polls.
     */
    void arrive(long atNs, List<byte[]> keyBytes, List<byte[]> valueBytes) {
        idleUntil(atNs);
        for (int from = 0; from < keyBytes.size(); from += POLL) {
            long cpu = threads.getCurrentThreadCpuTime();
            int to = Math.min(keyBytes.size(), from + POLL);
            for (int i = from; i < to; i++) {
                processor.process(new Record<>(keys.deserialize(null, keyBytes.get(i)),
                        values.deserialize(null, valueBytes.get(i)), atNs / 1_000_000));
            }
            if (clockNs >= nextCommitNs) {
                commit.run();
                nextCommitNs = clockNs + commitNs;
            }
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            processCpuNs += cpu;
            clockNs += cpu;
            drain();
            punctuate();
        }
    }

    /** Lets the task's clock run to {@code ns} (if it is not past it already), firing what falls due. */
    void idleUntil(long ns) {
        while (true) {
            long next = nextDue();
            if (next > ns || next == Long.MAX_VALUE) {
                break;
            }
            clockNs = Math.max(clockNs, next);
            punctuate();
        }
        clockNs = Math.max(clockNs, ns);
    }

    /** Sets the task's clock to {@code ns}, every punctuation as far ahead of it as it was. */
    void rebase(long ns) {
        due.replaceAll((p, at) -> ns + Math.max(0, at - clockNs));
        nextCommitNs = ns + Math.max(0, nextCommitNs - clockNs);
        clockNs = ns;
    }

    private long nextDue() {
        long next = Long.MAX_VALUE;
        for (Map.Entry<CapturedPunctuator, Long> e : due.entrySet()) {
            if (!e.getKey().cancelled()) {
                next = Math.min(next, e.getValue());
            }
        }
        return next;
    }

    /** Fires every punctuation due on the task's clock, which moves on by the CPU each took. */
    private void punctuate() {
        for (CapturedPunctuator p : new ArrayList<>(due.keySet())) {
            long at = due.get(p);
            if (p.cancelled() || at > clockNs) {
                continue;
            }
            long interval = p.getInterval().toNanos();
            observer.before();
            long cpu = threads.getCurrentThreadCpuTime();
            p.getPunctuator().punctuate(clockNs / 1_000_000);
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            // Kafka Streams skips the punctuations a late task missed: the next is an interval after this one
            due.put(p, at + interval > clockNs ? at + interval : clockNs + interval);
            observer.after();
            emitCpuNs += cpu;
            clockNs += cpu;
            drain();
            schedule();
        }
    }

    private void drain() {
        for (var f : context.forwarded()) {
            out.accept(f.record(), clockNs);
        }
        context.resetForwards();
    }

    private void schedule() {
        for (CapturedPunctuator p : context.scheduledPunctuators()) {
            if (p.getType() == PunctuationType.WALL_CLOCK_TIME && !due.containsKey(p)) {
                due.put(p, clockNs + p.getInterval().toNanos());
            }
        }
    }

    /** The task's clock: link time, or later while it is behind. */
    long clockNs() {
        return clockNs;
    }

    long processCpuNs() {
        return processCpuNs;
    }

    long emitCpuNs() {
        return emitCpuNs;
    }
}
