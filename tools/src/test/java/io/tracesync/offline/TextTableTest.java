package io.tracesync.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TextTableTest {

    @Test
    void columnsAreAsWideAsTheirWidestCellNumbersRightAligned() {
        StringBuilder sb = new StringBuilder();
        new TextTable("node", ">bound", "note").row("a-long-name", "1.000 µs", "").row("b", "83.69 ms", "x")
                .appendTo(sb);
        assertEquals(String.join(System.lineSeparator(), "node            bound  note",
                "a-long-name  1.000 µs", "b            83.69 ms  x", ""), sb.toString());
    }

    @Test
    void aRowHasOneCellPerColumn() {
        assertThrows(IllegalArgumentException.class, () -> new TextTable("a", "b").row("only one"));
    }
}
