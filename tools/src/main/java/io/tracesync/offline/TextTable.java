package io.tracesync.offline;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of text in columns, each as wide as its widest cell and two spaces from the next; a column whose heading
 * starts with {@code >} is aligned right (numbers), the others left.
 */
final class TextTable {

    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... headings) {
        right = new boolean[headings.length];
        String[] first = new String[headings.length];
        for (int i = 0; i < headings.length; i++) {
            right[i] = headings[i].startsWith(">");
            first[i] = right[i] ? headings[i].substring(1) : headings[i];
        }
        rows.add(first);
    }

    TextTable row(Object... cells) {
        if (cells.length != right.length) {
            throw new IllegalArgumentException(cells.length + " cells for " + right.length + " columns");
        }
        String[] texts = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            texts[i] = String.valueOf(cells[i]);
        }
        rows.add(texts);
        return this;
    }

    /** Appends the heading and the rows, each line ended, without trailing spaces. */
    void appendTo(StringBuilder sb) {
        int[] width = new int[right.length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String pad = " ".repeat(width[i] - r[i].length());
                line.append(i == 0 ? "" : "  ").append(right[i] ? pad + r[i] : r[i] + pad);
            }
            sb.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
    }
}
