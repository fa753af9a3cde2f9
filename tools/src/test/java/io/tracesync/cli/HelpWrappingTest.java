package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tracesync.console.DottedNames;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HelpWrappingTest {

    @ParameterizedTest
    @ValueSource(ints = {60, 80, 110})
    void noDottedNameIsWrappedAcrossLines(int width) {
        List<String> unwrapped = DottedNames.in(TracesyncCommand::new, 1000);
        assertEquals(unwrapped, DottedNames.in(TracesyncCommand::new, width));
    }
}
