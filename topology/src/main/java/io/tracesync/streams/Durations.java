package io.tracesync.streams;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as users write them: {@code 30m}, {@code 90s}, {@code 2h}, {@code 500ms}, ISO-8601, or {@code none} (zero). */
public final class Durations {

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
                default -> throw new IllegalArgumentException("unknown unit in '" + value + "'");
            };
            return Duration.ofNanos(Math.round(n * nanosPerUnit));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + value + "' is not a duration (e.g. 30m, 90s, 2h, none)");
        }
    }
}
