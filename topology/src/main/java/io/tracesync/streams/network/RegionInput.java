package io.tracesync.streams.network;

import io.tracesync.avro.NetworkInput;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A record of a region task's input ({@link RegionInputSerde}): a link's summary as it came off the regions' topic,
 * its link known by the two node names' bytes alone and its Avro read only when a region takes it in — of the
 * summaries arriving between two emissions a region takes the last of each link (at 250,000 nodes on 4 tasks, 4 of
 * 10); or a record built from its value: one to be written, or a backbone's factor, read at once.
 */
public final class RegionInput {

    private final byte[] encoded;
    private final Function<byte[], NetworkInput> reader;
    private NetworkInput decoded;
    /** Where the two node names' UTF-8 bytes lie in {@code encoded}: a in [aStart, aEnd), b in [bStart, bEnd). */
    private final int aStart;
    private final int aEnd;
    private final int bStart;
    private final int bEnd;
    private final int hash;

    private RegionInput(NetworkInput decoded) {
        this.encoded = null;
        this.reader = null;
        this.decoded = decoded;
        this.aStart = this.aEnd = this.bStart = this.bEnd = this.hash = 0;
    }

    private RegionInput(byte[] encoded, Function<byte[], NetworkInput> reader, int aStart, int aEnd, int bStart,
            int bEnd) {
        this.encoded = encoded;
        this.reader = reader;
        this.aStart = aStart;
        this.aEnd = aEnd;
        this.bStart = bStart;
        this.bEnd = bEnd;
        int h = 1;
        for (int i = aStart; i < aEnd; i++) {
            h = 31 * h + encoded[i];
        }
        h = 31 * h + (aEnd - aStart);
        for (int i = bStart; i < bEnd; i++) {
            h = 31 * h + encoded[i];
        }
        this.hash = h;
    }

    /** A record already read. */
    public static RegionInput of(NetworkInput decoded) {
        return new RegionInput(decoded);
    }

    /**
     * A link summary's record as written ({@code encoded}), its names' bytes at the given ranges, read by
     * {@code reader} when taken in.
     */
    static RegionInput summary(byte[] encoded, Function<byte[], NetworkInput> reader, int aStart, int aEnd,
            int bStart, int bEnd) {
        return new RegionInput(encoded, reader, aStart, aEnd, bStart, bEnd);
    }

    /** Whether this is a link's summary as written, its link known by its names' bytes. */
    boolean encodedSummary() {
        return encoded != null;
    }

    /** The record, read on the first call. */
    public NetworkInput value() {
        if (decoded == null) {
            decoded = reader.apply(encoded);
        }
        return decoded;
    }

    /** The bytes written, null for a record built from its value. */
    byte[] encoded() {
        return encoded;
    }

    /** A hash of the link's names, the same for every summary of the link ({@link #encodedSummary} only). */
    int linkHash() {
        return hash;
    }

    /** How many bytes the two names take ({@link #encodedSummary} only). */
    int namesLength() {
        return aEnd - aStart + bEnd - bStart;
    }

    /** Copies a's bytes then b's into {@code to} at {@code at}; returns a's length ({@link #encodedSummary} only). */
    int copyNames(byte[] to, int at) {
        System.arraycopy(encoded, aStart, to, at, aEnd - aStart);
        System.arraycopy(encoded, bStart, to, at + aEnd - aStart, bEnd - bStart);
        return aEnd - aStart;
    }

    /**
     * Whether this summary's names are a's bytes in {@code names} from {@code from}, {@code aLength} of them, then
     * b's up to {@code to} ({@link #encodedSummary} only).
     */
    boolean hasNames(byte[] names, int from, int aLength, int to) {
        return Arrays.equals(encoded, aStart, aEnd, names, from, from + aLength)
                && Arrays.equals(encoded, bStart, bEnd, names, from + aLength, to);
    }
}
