package io.tracesync.console;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Picocli's usage help, never wrapped inside a dotted name such as {@code session.timeout.ms}: picocli wraps where
 * {@link java.text.BreakIterator#getLineInstance()} allows, and that allows a break after every '.'. Each '.' between
 * two name characters is laid out as a letter, which holds the name together, and printed as '.' again: in the
 * header, description, footer and the option list (the short lists of exit codes and subcommands are left as they
 * are).
 */
final class UnbrokenNamesHelp extends CommandLine.Help {

    private static final char HELD = '\u00fe';
    private static final Pattern INNER_DOT = Pattern.compile("(?<=\\w)\\.(?=\\w)");

    UnbrokenNamesHelp(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    @Override
    public String header(Object... params) {
        return wrapped(commandSpec().usageMessage().header(), params);
    }

    @Override
    public String description(Object... params) {
        return wrapped(commandSpec().usageMessage().description(), params);
    }

    @Override
    public String footer(Object... params) {
        return wrapped(commandSpec().usageMessage().footer(), params);
    }

    @Override
    public Layout createDefaultLayout(List<OptionSpec> options, List<PositionalParamSpec> positionals,
            ColorScheme scheme) {
        Layout layout = super.createDefaultLayout(options, positionals, scheme);
        return new Layout(scheme, new Table(scheme, layout.textTable()), layout.optionRenderer(),
                layout.parameterRenderer());
    }

    private String wrapped(String[] lines, Object... params) {
        String[] held = new String[lines.length];
        for (int i = 0; i < lines.length; i++) {
            held[i] = INNER_DOT.matcher(lines[i]).replaceAll(String.valueOf(HELD));
        }
        UsageMessageSpec usage = commandSpec().usageMessage();
        return join(ansi(), usage.width(), usage.adjustLineBreaksForWideCJKCharacters(), held, new StringBuilder(),
                params).toString().replace(HELD, '.');
    }

    /** A table laying out its cells with held dots, printed with dots. */
    private static final class Table extends TextTable {

        Table(ColorScheme scheme, TextTable like) {
            super(scheme, like.columns());
            indentWrappedLines = like.indentWrappedLines;
            setAdjustLineBreaksForWideCJKCharacters(like.isAdjustLineBreaksForWideCJKCharacters());
        }

        @Override
        public Cell putValue(int row, int col, Text value) {
            Text held = value;
            Matcher m = INNER_DOT.matcher(value.plainString());
            while (m.find()) {
                held = held.substring(0, m.start()).concat(String.valueOf(HELD)).concat(held.substring(m.end()));
            }
            return super.putValue(row, col, held);
        }

        @Override
        public StringBuilder toString(StringBuilder text) {
            int from = text.length();
            super.toString(text);
            for (int i = from; i < text.length(); i++) {
                if (text.charAt(i) == HELD) {
                    text.setCharAt(i, '.');
                }
            }
            return text;
        }
    }
}
