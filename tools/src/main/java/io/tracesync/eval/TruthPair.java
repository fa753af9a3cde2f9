package io.tracesync.eval;

import io.tracesync.core.link.SendReceive;
import io.tracesync.files.PairsCsv;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.function.Consumer;

/** A row of a simulation's {@code truth-pairs.csv}: the matched pair plus its true send and receive times. */
public record TruthPair(SendReceive pair, long trueSendNs, long trueRecvNs) {

    /** Reads {@code sender,send_ns,receiver,recv_ns,true_send_ns,true_recv_ns} rows with the pairs contract's parser. */
    public static long read(BufferedReader in, String source, Consumer<TruthPair> sink) throws IOException {
        return PairsCsv.readRows(in, source, row -> sink.accept(
                new TruthPair(row.pair(), row.longAt(4, "true_send_ns"), row.longAt(5, "true_recv_ns"))));
    }
}
