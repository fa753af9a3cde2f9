package io.tracesync.streams.network;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * When a network task emits: until its first emission that publishes a factor, as soon as there is something to
 * emit; then every interval. A task that another instance took over after a failure so publishes within
 * {@link #FIRST_CHECK} of its first news instead of up to an interval later — also when its first evaluation, of the
 * state it restored, finds every answer as the failed instance last published it — and its emissions stay an
 * interval apart.
 */
final class EmissionSchedule {

    /** How often a task that has not published yet looks for something to emit. */
    static final Duration FIRST_CHECK = Duration.ofMillis(100);

    /** One emission; true when it published a factor. */
    @FunctionalInterface
    interface Emission {
        boolean emit(long now);
    }

    private EmissionSchedule() {
    }

    static void start(ProcessorContext<?, ?> context, Duration interval, BooleanSupplier somethingToEmit,
            Emission emission) {
        Cancellable[] first = new Cancellable[1];
        Duration check = interval.compareTo(FIRST_CHECK) < 0 ? interval : FIRST_CHECK;
        first[0] = context.schedule(check, PunctuationType.WALL_CLOCK_TIME, now -> {
            if (somethingToEmit.getAsBoolean() && emission.emit(now)) {
                first[0].cancel();
                context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, emission::emit);
            }
        });
    }
}
