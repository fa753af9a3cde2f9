package io.tracesync.pcap;

import java.io.IOException;

/** A capture file that cannot be read, with where and why. */
public final class CaptureFormatException extends IOException {

    public CaptureFormatException(String message) {
        super(message);
    }
}
