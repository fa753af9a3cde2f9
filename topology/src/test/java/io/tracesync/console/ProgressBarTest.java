package io.tracesync.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

    private static final Pattern PERCENT = Pattern.compile("(\\d+)%$");

    private final StringWriter drawn = new StringWriter();

    /** Every frame drawn, in order (each begins with a carriage return); the clearing one left out. */
    private List<String> frames() {
        return Arrays.stream(drawn.toString().split("\r")).filter(f -> PERCENT.matcher(f).find()).toList();
    }

    private static int percent(String frame) {
        Matcher m = PERCENT.matcher(frame);
        assertTrue(m.find(), frame);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void aBarDrivenToItsTotalEndsOnAFullFrameAndGoesNoFurther() {
        long total = 60_500_000_000L;
        try (ProgressBar.Meter bar = new ProgressBar.Meter(total, new PrintWriter(drawn), "simulating")) {
            for (long t = 0; t < total; t += 1_000_000_000L) {
                bar.update(t);
            }
            bar.update(total);
            String last = frames().get(frames().size() - 1);
            assertEquals("simulating [" + "#".repeat(30) + "] 100%", last);
            bar.update(total + 1_000_000_000L); // more than the total: still a full bar
            assertEquals(last, frames().get(frames().size() - 1));
        }
        List<String> frames = frames();
        for (int i = 1; i < frames.size(); i++) {
            assertTrue(percent(frames.get(i - 1)) <= percent(frames.get(i)), frames.toString());
        }
        assertTrue(drawn.toString().endsWith("\r"), "the bar's line is cleared at the end");
    }

    @Test
    void aWrappedStreamReadToItsEndShowsAFullBar() throws IOException {
        byte[] bytes = new byte[10_000];
        try (InputStream in = new ProgressBar(new ByteArrayInputStream(bytes),
                new ProgressBar.Meter(bytes.length, new PrintWriter(drawn), "reading"))) {
            in.readAllBytes();
        }
        assertEquals(100, percent(frames().get(frames().size() - 1)));
    }

    @Test
    void noTotalDrawsNothing() {
        try (ProgressBar.Meter bar = new ProgressBar.Meter(0, new PrintWriter(drawn), "nothing")) {
            bar.update(5);
        }
        assertEquals("", drawn.toString());
    }
}
