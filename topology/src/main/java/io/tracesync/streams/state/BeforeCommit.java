package io.tracesync.streams.state;

import java.util.Map;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A state store that holds nothing: Kafka Streams calls it just before every commit of its task, at the pre-commit
 * cache flush (the hook {@link WriteBackStore} writes back at), where its processor forwards what it batched, so
 * the batch goes out in the transaction that commits the input it came from — also when the task is suspended for
 * a rebalance — and adds no latency under exactly_once_v2, which shows nothing before the commit. A dirty close
 * (a crash, a task corrupted) discards the batch with that transaction.
 *
 * <p>A processor gets it by {@code context.getStateStore(name)} (Kafka Streams hands out stores of no key-value,
 * window or session type as they are) and must only forward to sinks from the hook: the task's other stores may
 * already have been flushed.
 */
public final class BeforeCommit implements StateStore, CachedStateStore<Void, Void> {

    /** What the processor does before each commit, and when its batch is void. */
    public interface Listener {

        void beforeCommit();

        void discard();
    }

    private final String name;
    private Listener listener;
    private boolean open;

    private BeforeCommit(String name) {
        this.name = name;
    }

    /** A builder of the store named {@code name} (not logged: it holds nothing to restore). */
    public static StoreBuilder<BeforeCommit> builder(String name) {
        return new Builder(name);
    }

    public void listen(Listener l) {
        listener = l;
    }

    @Override
    public void flushCache() {
        if (listener != null) {
            listener.beforeCommit();
        }
    }

    @Override
    public void clearCache() {
        if (listener != null) {
            listener.discard();
        }
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Void, Void> l, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> {
        });
        open = true;
    }

    @Override
    public void close() {
        listener = null;
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return QueryResult.forUnknownQueryType(query, this);
    }

    @Override
    public Position getPosition() {
        return Position.emptyPosition();
    }

    private record Builder(String name) implements StoreBuilder<BeforeCommit> {

        @Override
        public StoreBuilder<BeforeCommit> withCachingEnabled() {
            return this;
        }

        @Override
        public StoreBuilder<BeforeCommit> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<BeforeCommit> withLoggingEnabled(Map<String, String> config) {
            throw new UnsupportedOperationException("a before-commit hook holds nothing to log");
        }

        @Override
        public StoreBuilder<BeforeCommit> withLoggingDisabled() {
            return this;
        }

        @Override
        public BeforeCommit build() {
            return new BeforeCommit(name);
        }

        @Override
        public Map<String, String> logConfig() {
            return Map.of();
        }

        @Override
        public boolean loggingEnabled() {
            return false;
        }
    }
}
