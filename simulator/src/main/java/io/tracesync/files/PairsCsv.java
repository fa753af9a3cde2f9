package io.tracesync.files;

import io.tracesync.core.link.SendReceive;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The matched-pairs files {@code sender,send_ns,receiver,recv_ns}, written ({@link #appendLine}) and read: header
 * optional (a first line whose timestamps are not numbers), extra columns ignored, blank lines skipped. A bad line
 * stops the read with an {@link InputException} naming the line.
 */
public final class PairsCsv {

    public static final String HEADER = "sender,send_ns,receiver,recv_ns";
    private static final long MAX_TS = 1L << 62;

    private PairsCsv() {
    }

    /** Appends one line without its newline, so that a wider file (a simulation's truth) can add columns. */
    public static StringBuilder appendLine(StringBuilder b, String sender, long sendNs, String receiver, long recvNs) {
        return b.append(sender).append(',').append(sendNs).append(',').append(receiver).append(',').append(recvNs);
    }

    /** Calls {@code sink} for each pair; returns the number of pairs read. */
    public static long read(BufferedReader in, String source, Consumer<SendReceive> sink) throws IOException {
        return readRows(in, source, row -> sink.accept(row.pair()));
    }

    /** One line read: its pair, and its extra columns for readers of wider files (e.g. a simulation's truth). */
    public record Row(SendReceive pair, String[] fields, String source, long line) {

        /** The integer in column {@code column} (0-based), named {@code name} in the error of a bad line. */
        public long longAt(int column, String name) {
            if (column >= fields.length) {
                throw new InputException(source, line, "no column " + name);
            }
            return timestamp(fields[column], source, line, name);
        }
    }

    /** Calls {@code sink} for each line's pair and fields; returns the number of pairs read. */
    public static long readRows(BufferedReader in, String source, Consumer<Row> sink) throws IOException {
        long count = 0;
        long lineNo = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (lineNo == 1 && f.length >= 4 && !isInteger(f[1].strip()) && !isInteger(f[3].strip())) {
                continue; // header
            }
            if (f.length < 4) {
                throw new InputException(source, lineNo, "expected sender,send_ns,receiver,recv_ns but found "
                        + f.length + " field(s): " + abbreviate(line));
            }
            String sender = f[0].strip();
            String receiver = f[2].strip();
            if (sender.isEmpty() || receiver.isEmpty()) {
                throw new InputException(source, lineNo, "empty node id");
            }
            if (sender.equals(receiver)) {
                throw new InputException(source, lineNo, "node " + sender + " sends to itself");
            }
            sink.accept(new Row(new SendReceive(sender, timestamp(f[1], source, lineNo, "send_ns"), receiver,
                    timestamp(f[3], source, lineNo, "recv_ns")), f, source, lineNo));
            count++;
        }
        return count;
    }

    /**
     * A timestamp as the stream accepts them (its {@code check} step): a whole number of nanoseconds from 0 up to
     * 2^62 exclusive.
     */
    private static long timestamp(String field, String source, long lineNo, String name) {
        String s = field.strip();
        long t;
        try {
            t = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new InputException(source, lineNo, name + " is not an integer number of nanoseconds in the "
                    + "int64 range: '" + abbreviate(s) + "'");
        }
        if (t < 0 || t >= MAX_TS) {
            throw new InputException(source, lineNo, name + " " + t + (t < 0 ? " is negative" : " is 2^62 ns or more")
                    + ": timestamps are 0 to 2^62 ns, as the stream accepts them");
        }
        return t;
    }

    private static boolean isInteger(String s) {
        try {
            Long.parseLong(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** Bad input, located. */
    public static final class InputException extends RuntimeException {
        InputException(String source, long line, String message) {
            super(source + ":" + line + ": " + message);
        }
    }
}
