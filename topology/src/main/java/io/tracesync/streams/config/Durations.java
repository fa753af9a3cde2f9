package io.tracesync.streams.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Durations as users write them: {@code 30m}, {@code 90s}, {@code 2h}, {@code 7d}, {@code 500ms}, ISO-8601, or {@code none}
 * (zero); and as they read them: {@link #format}.
 */
public final class Durations {

    private static final String[] UNITS = {"ns", "µs", "ms", "s"};

    private Durations() {
    }

    public static Duration parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("none") || v.equals("0")) {
            return Duration.ZERO;
        }
        try {
            if (v.startsWith("p")) {
                return Duration.parse(value.strip().toUpperCase(Locale.ROOT));
            }
            int unit = 0;
            while (unit < v.length() && (Character.isDigit(v.charAt(unit)) || v.charAt(unit) == '.')) {
                unit++;
            }
            double n = Double.parseDouble(v.substring(0, unit));
            long nanosPerUnit = switch (v.substring(unit)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m", "min" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                case "d" -> 86_400_000_000_000L;
                default -> throw new IllegalArgumentException("unknown unit in '" + value + "'");
            };
            return Duration.ofNanos(Math.round(n * nanosPerUnit));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + value + "' is not a duration (e.g. 30m, 90s, 2h, none)");
        }
    }

    /**
     * A duration or bound of {@code ns} nanoseconds in ns, µs, ms or s, whichever keeps 1 to 999 before the point,
     * with 4 significant digits rounded away from zero (so a bound shown still holds): {@code 83.69 µs},
     * {@code 0 ns}, {@code -1.500 ms}; {@code inf} when not finite.
     */
    public static String format(double ns) {
        if (!Double.isFinite(ns)) {
            return ns < 0 ? "-inf" : "inf";
        }
        if (ns == 0) {
            return "0 ns";
        }
        BigDecimal v = new BigDecimal(ns).round(new MathContext(4, RoundingMode.UP));
        int unit = 0;
        while (unit < UNITS.length - 1 && v.abs().compareTo(BigDecimal.valueOf(1000)) >= 0) {
            v = v.movePointLeft(3);
            unit++;
        }
        int integerDigits = Math.max(1, v.precision() - v.scale());
        return v.setScale(Math.max(0, 4 - integerDigits), RoundingMode.UP).toPlainString() + " " + UNITS[unit];
    }
}
