package io.tracesync.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.console.DottedNames;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UnbrokenNamesHelpTest {

    @ParameterizedTest
    @ValueSource(ints = {60, 80, 100, 110})
    void noDottedNameIsWrappedAcrossLines(int width) {
        List<String> unwrapped = DottedNames.in(ApplicationCommand::new, 1000);
        assertTrue(unwrapped.contains("tracesync replay: session.timeout.ms"), unwrapped.toString());
        assertEquals(unwrapped, DottedNames.in(ApplicationCommand::new, width));
    }

    @Test
    void dotsArePrintedAsDots() {
        String help = CliRun.of("correct-spans", "--help").out();
        assertTrue(help.contains("tracesync.bound_ns") && help.contains("service.instance.id"), help);
        assertFalse(help.contains("\u00fe"), help);
    }
}
