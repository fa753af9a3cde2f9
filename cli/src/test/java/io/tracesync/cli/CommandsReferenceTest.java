package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * docs/COMMANDS.md is every command's {@code --help}, generated from the commands themselves. When a command
 * changes, regenerate it with
 * {@code ./mvnw -pl cli surefire:test -Dtest=CommandsReferenceTest -Dtracesync.docs.update=true}.
 */
class CommandsReferenceTest {

    private static final Path DOC = Path.of("..", "docs", "COMMANDS.md");
    private static final int WIDTH = 110;

    static String reference() {
        StringBuilder b = new StringBuilder("# Commands\n\n")
                .append("Every command of `./tracesync` with its options, as `--help` prints them (generated from the ")
                .append("commands by\n`CommandsReferenceTest`). The production image runs `run`, `replay` and ")
                .append("`correct-spans`; the\nothers work on files, the simulator, the evaluation and the ")
                .append("benchmarks.\n");
        CommandLine root = TracesyncCommand.commandLine();
        root.setUsageHelpWidth(WIDTH);
        append(b, root, "tracesync");
        return b.toString();
    }

    private static void append(StringBuilder b, CommandLine cmd, String path) {
        b.append("\n## ").append(path).append("\n\n```text\n")
                .append(cmd.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n");
        cmd.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help") && sub.getCommandName().equals(name)) {
                sub.setUsageHelpWidth(WIDTH);
                append(b, sub, path + " " + name);
            }
        });
    }

    @Test
    void theReferenceIsEveryCommandsHelp() throws IOException {
        String generated = reference();
        if (Boolean.getBoolean("tracesync.docs.update")) {
            Files.writeString(DOC, generated);
        }
        assertTrue(Files.exists(DOC), DOC + " is missing: regenerate it (see this test's documentation)");
        assertEquals(generated.lines().toList(), Files.readString(DOC).lines().toList(), "docs/COMMANDS.md is "
                + "stale: regenerate it with ./mvnw -pl cli surefire:test -Dtest=CommandsReferenceTest "
                + "-Dtracesync.docs.update=true");
    }
}
