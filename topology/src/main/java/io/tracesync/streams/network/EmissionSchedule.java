package io.tracesync.streams.network;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * When a network task emits: the first time as soon as there is something to emit, then every interval. A task that
 * another instance took over after a failure so publishes within {@link #FIRST_CHECK} of running again instead of up
 * to an interval later, and its emissions stay an interval apart.
 */
final class EmissionSchedule {

    /** How often a task that has not emitted yet looks for something to emit. */
    static final Duration FIRST_CHECK = Duration.ofMillis(100);

    private EmissionSchedule() {
    }

    static void start(ProcessorContext<?, ?> context, Duration interval, BooleanSupplier somethingToEmit,
            Punctuator emit) {
        Cancellable[] first = new Cancellable[1];
        Duration check = interval.compareTo(FIRST_CHECK) < 0 ? interval : FIRST_CHECK;
        first[0] = context.schedule(check, PunctuationType.WALL_CLOCK_TIME, now -> {
            if (somethingToEmit.getAsBoolean()) {
                first[0].cancel();
                emit.punctuate(now);
                context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, emit);
            }
        });
    }
}
