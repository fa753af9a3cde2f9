package io.tracesync.cli;

import io.tracesync.console.DurationConverter;
import io.tracesync.core.network.LinkWeight;
import io.tracesync.core.network.NetworkIntervals;
import io.tracesync.core.network.NetworkMethod;
import io.tracesync.core.network.ReferenceRule;
import io.tracesync.eval.Age;
import io.tracesync.faults.Fault;
import io.tracesync.sim.ClockDiscipline;
import io.tracesync.sim.ClusterLayout;
import io.tracesync.sim.DelayModel;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** The option types of the commands, as users write them. */
final class Converters {

    private Converters() {
    }

    /** A share as users write it: {@code 1%} or {@code 0.01}. */
    static final class FractionConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String v = value.strip();
            boolean percent = v.endsWith("%");
            try {
                double d = Double.parseDouble(percent ? v.substring(0, v.length() - 1) : v);
                return percent ? d / 100 : d;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a share (e.g. 1% or 0.01)");
            }
        }
    }

    /** Messages per second per link: each link's rate is drawn log-uniformly in [min, max]. */
    record Rate(double min, double max) {
    }

    /** A rate {@code R} or a range {@code MIN..MAX}. */
    static final class RateConverter implements ITypeConverter<Rate> {
        @Override
        public Rate convert(String value) {
            String[] parts = value.strip().split("\\.\\.", -1);
            try {
                if (parts.length == 1) {
                    double r = Double.parseDouble(parts[0]);
                    return new Rate(r, r);
                }
                if (parts.length == 2) {
                    return new Rate(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]));
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' is not a rate (e.g. 10 or 0.1..1000)");
        }
    }

    /** A range of durations, each drawn log-uniformly in [min, max]. */
    record DurationRange(Duration min, Duration max) {
    }

    /** A duration {@code D} or a range {@code MIN..MAX} of durations. */
    static final class DurationRangeConverter implements ITypeConverter<DurationRange> {
        private final DurationConverter duration = new DurationConverter();

        @Override
        public DurationRange convert(String value) {
            String[] parts = value.strip().split("\\.\\.", -1);
            if (parts.length > 2) {
                throw new TypeConversionException("'" + value + "' is not a duration or a range (e.g. 1ms..1s)");
            }
            Duration min = duration.convert(parts[0]);
            return new DurationRange(min, parts.length == 1 ? min : duration.convert(parts[1]));
        }
    }

    /** A value its type's own {@code parse} reads, whose message says what it expects. */
    abstract static class Parsed<T> implements ITypeConverter<T> {
        private final Function<String, T> parse;

        Parsed(Function<String, T> parse) {
            this.parse = parse;
        }

        @Override
        public T convert(String value) {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** An {@link Age}: a duration, or {@code end} for the end of the run. */
    static final class AgeConverter implements ITypeConverter<Age> {
        private final DurationConverter duration = new DurationConverter();

        @Override
        public Age convert(String value) {
            if (value.strip().equalsIgnoreCase("end")) {
                return Age.END;
            }
            try {
                return new Age(duration.convert(value));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** random, star, racks or cliques. */
    static final class LayoutConverter extends Parsed<ClusterLayout.Kind> {
        LayoutConverter() {
            super(ClusterLayout.Kind::parse);
        }
    }

    /** ntpd or chrony. */
    static final class DaemonConverter extends Parsed<ClockDiscipline.Daemon> {
        DaemonConverter() {
            super(ClockDiscipline.Daemon::parse);
        }
    }

    /** exponential or lognormal. */
    static final class DistributionConverter extends Parsed<DelayModel.Distribution> {
        DistributionConverter() {
            super(DelayModel.Distribution::parse);
        }
    }

    /** {@link NetworkMethod} as users write it: {@code all-links} or {@code tree}. */
    static final class MethodConverter extends Parsed<NetworkMethod> {
        MethodConverter() {
            super(NetworkMethod::parse);
        }
    }

    /** {@link ReferenceRule} as users write it: {@code most-links} or {@code centroid}. */
    static final class ReferenceRuleConverter extends Parsed<ReferenceRule> {
        ReferenceRuleConverter() {
            super(ReferenceRule::parse);
        }
    }

    /** {@link Fault} as users write it, e.g. {@code kill-network-owner}. */
    static final class FaultConverter extends Parsed<Fault> {
        FaultConverter() {
            super(Fault::parse);
        }
    }

    /** {@link LinkWeight} as users write it: {@code slope-accuracy} or {@code bound-width}. */
    static final class WeightConverter extends Parsed<LinkWeight> {
        WeightConverter() {
            super(LinkWeight::parse);
        }
    }

    /** {@link NetworkIntervals.Weighting} as users write it, e.g. {@code inverse-width}. */
    static final class WeightingConverter implements ITypeConverter<NetworkIntervals.Weighting> {
        @Override
        public NetworkIntervals.Weighting convert(String value) {
            try {
                return NetworkIntervals.Weighting.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "expected inverse-width, inverse-width-squared or inverse-slope-accuracy, not '" + value
                                + "'");
            }
        }
    }
}
