package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.core.link.LinkOptions;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The clock model of the link core, as the application's {@code link.curvature}, {@code link.window.min},
 * {@code link.step.ppb}, {@code link.step.interval} and {@code link.excursion}, and the datasheet bound's
 * {@code link.max.drift.ppm}.
 */
final class ClockModelOptions {

    @Option(names = "--curvature", paramLabel = "PPB_PER_S",
            description = "The clock model: how fast the relative frequency of two clocks may change, in ppb per "
                    + "second, as the application's link.curvature; 0 for linear clocks (default: "
                    + LinkOptions.DEFAULT_CURVATURE_PPB_PER_S + ", or 0 with --horizon none).")
    Double curvature;

    @Option(names = "--shortest-window", paramLabel = "DURATION", descriptionKey = "link.window.min",
            converter = DurationConverter.class,
            description = "The shortest window of a link under the clock model, as link.window.min (default: "
                    + "${DEFAULT-VALUE}).")
    Duration shortestWindow;

    @Option(names = "--step-ppb", paramLabel = "PPB", descriptionKey = "link.step.ppb",
            description = "Frequency steps of a time daemon on top of the clock model: the steps within any "
                    + "--step-interval add up to at most this, in ppb, as link.step.ppb (default: ${DEFAULT-VALUE}).")
    double stepPpb;

    @Option(names = "--step-interval", paramLabel = "DURATION", descriptionKey = "link.step.interval",
            converter = DurationConverter.class,
            description = "The interval of --step-ppb, as link.step.interval (default: ${DEFAULT-VALUE}).")
    Duration stepInterval;

    @Option(names = "--excursion", paramLabel = "DURATION", descriptionKey = "link.excursion",
            converter = DurationConverter.class,
            description = "Offset excursions of a time daemon on top of the clock model: the relation of two clocks "
                    + "may depart from a curve within it by at most this either way, as link.excursion (default: "
                    + "${DEFAULT-VALUE}).")
    Duration excursion;

    @Option(names = "--max-drift-ppm", paramLabel = "PPM", descriptionKey = "link.max.drift.ppm",
            description = "Also give the datasheet bound: every node's interval under each clock's rate within this "
                    + "many ppm of true time alone, as link.max.drift.ppm; 0: none (default: ${DEFAULT-VALUE}).")
    double maxDriftPpm;

    /**
     * The link options of this model with the given horizon and minimum delays ({@link LinkOptions#withModel}).
     *
     * @throws IllegalArgumentException if a curvature above 0 is given without a horizon
     */
    LinkOptions linkOptions(Duration horizon, long minDelayAtoBNs, long minDelayBtoANs) {
        LinkOptions model = LinkOptions.withModel(horizon.toNanos(), minDelayAtoBNs, minDelayBtoANs, curvature,
                shortestWindow.toNanos());
        return (stepPpb == 0 ? model : model.withSteps(stepPpb, stepInterval.toNanos())).withMaxDrift(maxDriftPpm)
                .withExcursion(excursion.toNanos());
    }
}
