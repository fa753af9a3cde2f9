package io.tracesync.eval;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.link.SendReceive;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Request/response exchanges as the Zipkin/Jaeger heuristic sees them: two consecutive opposite messages of a
 * link whose answer is sent after the request arrived (cs, sr, then ss, cr). Messages of type T arrive in true
 * receive order; each completed exchange is handed on as (request, answer).
 */
final class Exchanges<T> {

    private final Function<T, SendReceive> pairOf;
    private final BiConsumer<T, T> onExchange;
    private final Map<LinkKey, T> pending = new HashMap<>();

    Exchanges(Function<T, SendReceive> pairOf, BiConsumer<T, T> onExchange) {
        this.pairOf = pairOf;
        this.onExchange = onExchange;
    }

    void accept(T message) {
        SendReceive a = pairOf.apply(message);
        LinkKey key = a.link();
        T request = pending.get(key);
        if (request == null || !pairOf.apply(request).sender().equals(a.receiver())
                || a.sendNs() < pairOf.apply(request).recvNs()) {
            pending.put(key, message);
            return;
        }
        pending.remove(key);
        onExchange.accept(request, message);
    }

    /** θ: the answerer's clock minus the requester's, assuming symmetric delays: ((sr − cs) − (cr − ss)) / 2. */
    static double offset(SendReceive request, SendReceive answer) {
        return ((double) (request.recvNs() - request.sendNs()) - (double) (answer.recvNs() - answer.sendNs())) / 2;
    }
}
