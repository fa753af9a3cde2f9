package io.tracesync.streams.errors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log's account of dead letters: one line each (where the record came from and why), the reason and the cause
 * staying in the dead-letter record's headers. Under a flood, at most {@value #LINES_PER_MINUTE} lines a minute, then
 * one summary line a minute of the ones not listed.
 */
final class DeadLetterLog {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterLog.class);
    static final int LINES_PER_MINUTE = 20;
    private static final long MINUTE_NS = 60_000_000_000L;

    private final String topic;
    private long windowStart = System.nanoTime();
    private int listed;
    private long unlisted;

    /** @param topic the dead-letter topic, named in the lines */
    DeadLetterLog(String topic) {
        this.topic = topic;
    }

    /** One dead letter from {@code where} (topic-partition@offset, or the processor), for {@code reason}. */
    synchronized void deadLetter(String where, Exception reason) {
        long now = System.nanoTime();
        if (now - windowStart >= MINUTE_NS) {
            if (unlisted > 0) {
                LOG.warn("{} more dead letters in the last minute, not listed (all in {})", unlisted, topic);
            }
            windowStart = now;
            listed = 0;
            unlisted = 0;
        }
        if (listed < LINES_PER_MINUTE) {
            listed++;
            LOG.warn("dead letter from {} to {}: {}", where, topic, message(reason));
        } else {
            unlisted++;
        }
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m != null ? m : e.getClass().getSimpleName();
    }
}
