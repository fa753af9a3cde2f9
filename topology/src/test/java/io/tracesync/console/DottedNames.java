package io.tracesync.console;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The dotted names ({@code session.timeout.ms}, {@code host.id}) in the usage help of a command and all its
 * subcommands, as printed at a given width: a name wrapped across two lines is missing from them.
 */
public final class DottedNames {

    private static final Pattern NAME = Pattern.compile("\\w+(?:\\.\\w+)+");

    private DottedNames() {
    }

    /** The names of every command's help at {@code width} columns, command by command. */
    public static List<String> in(Supplier<Object> command, int width) {
        CommandLine root = UserErrors.commandLine(command.get());
        root.setUsageHelpWidth(width);
        List<String> names = new ArrayList<>();
        collect(root, "tracesync", names);
        return names;
    }

    private static void collect(CommandLine cmd, String path, List<String> names) {
        Matcher m = NAME.matcher(cmd.getUsageMessage(CommandLine.Help.Ansi.OFF));
        while (m.find()) {
            names.add(path + ": " + m.group());
        }
        for (CommandLine sub : new LinkedHashSet<>(cmd.getSubcommands().values())) {
            collect(sub, path + " " + sub.getCommandName(), names);
        }
    }
}
