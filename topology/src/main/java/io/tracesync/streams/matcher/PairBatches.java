package io.tracesync.streams.matcher;

import io.tracesync.avro.LinkId;
import io.tracesync.avro.MatchedPair;
import io.tracesync.avro.MatchedPairs;
import io.tracesync.streams.state.BeforeCommit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;

/**
 * The matcher's pairs held per link until the task's next commit ({@link BeforeCommit}), then forwarded as one
 * {@link MatchedPairs} record per link, in the order matched: the pairs' repartition hop then costs one record per
 * link and commit instead of one per pair, with nothing visible later under exactly_once_v2. Forwarding happens
 * outside the matcher's own call, so it restores the matcher as Kafka Streams' current node and, per batch, the
 * record context of its last pair, as Kafka Streams' record cache does when it forwards at a flush.
 */
final class PairBatches implements BeforeCommit.Listener {

    /** Pairs held before they are forwarded even without a commit: bounds the heap under long commit intervals. */
    static final int MAX_PAIRS = 10_000;

    private static final class Batch {
        final List<MatchedPair> pairs = new ArrayList<>();
        long timestamp;
        ProcessorRecordContext recordContext;
    }

    private final ProcessorContext<LinkId, MatchedPairs> context;
    /** The context's internals, or null in a test's mock context, which forwards from anywhere. */
    private final InternalProcessorContext<?, ?> internal;
    private final ProcessorNode<?, ?, ?, ?> node;
    private final Map<LinkId, Batch> batches = new LinkedHashMap<>();
    private int held;

    /** Called in the matcher's init, while it is the current node. */
    PairBatches(ProcessorContext<LinkId, MatchedPairs> context) {
        this.context = context;
        this.internal = context instanceof InternalProcessorContext<?, ?> i ? i : null;
        this.node = internal == null ? null : internal.currentNode();
    }

    /** Holds {@code pair} of {@code link}, matched while processing {@code record}. */
    void add(Record<?, ?> record, LinkId link, MatchedPair pair) {
        Batch b = batches.computeIfAbsent(link, k -> new Batch());
        b.pairs.add(pair);
        b.timestamp = Math.max(b.timestamp, record.timestamp());
        b.recordContext = internal == null ? null : internal.recordContext();
        if (++held >= MAX_PAIRS) {
            beforeCommit();
        }
    }

    @Override
    public void beforeCommit() {
        if (batches.isEmpty()) {
            return;
        }
        ProcessorNode<?, ?, ?, ?> previousNode = internal == null ? null : internal.currentNode();
        ProcessorRecordContext previousContext = internal == null ? null : internal.recordContext();
        try {
            if (internal != null) {
                internal.setCurrentNode(node);
            }
            for (Map.Entry<LinkId, Batch> e : batches.entrySet()) {
                Batch b = e.getValue();
                if (internal != null && b.recordContext != null) {
                    internal.setRecordContext(b.recordContext);
                }
                context.forward(new Record<>(e.getKey(), new MatchedPairs(b.pairs), b.timestamp));
            }
        } finally {
            discard();
            if (internal != null) {
                internal.setCurrentNode(previousNode);
                internal.setRecordContext(previousContext);
            }
        }
    }

    @Override
    public void discard() {
        batches.clear();
        held = 0;
    }
}
