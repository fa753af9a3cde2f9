package io.tracesync.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile as its instructions, stage by stage: comments dropped, continued lines joined. Enough of the syntax
 * for this repository's Dockerfile, not a general parser (no heredocs, no escape directive).
 */
record Dockerfile(Map<String, String> args, List<Stage> stages) {

    record Instruction(String keyword, String arguments) {
    }

    /**
     * One build stage: its FROM arguments (the global build arguments' defaults in place of their references), as
     * written, and the instructions after it.
     */
    record Stage(String from, String written, List<Instruction> instructions) {

        String image() {
            return from.split("\\s+")[0];
        }

        /** The stage's name ({@code FROM image AS name}), or "". */
        String name() {
            String[] words = from.split("\\s+");
            return words.length == 3 && words[1].equalsIgnoreCase("AS") ? words[2] : "";
        }

        List<String> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword.equals(keyword)).map(Instruction::arguments).toList();
        }

        /** The arguments of the last such instruction (the one in force), or null. */
        String last(String keyword) {
            List<String> all = all(keyword);
            return all.isEmpty() ? null : all.get(all.size() - 1);
        }
    }

    static Dockerfile parse(String text) {
        List<Instruction> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String stripped = line.strip();
            if (stripped.startsWith("#") || (stripped.isEmpty() && current.length() == 0)) {
                continue;
            }
            boolean continued = stripped.endsWith("\\");
            current.append(continued ? stripped.substring(0, stripped.length() - 1) : stripped).append(' ');
            if (!continued) {
                String[] parts = current.toString().strip().split("\\s+", 2);
                instructions.add(new Instruction(parts[0].toUpperCase(Locale.ROOT), parts.length > 1 ? parts[1] : ""));
                current.setLength(0);
            }
        }
        Map<String, String> args = new LinkedHashMap<>();
        List<Stage> stages = new ArrayList<>();
        for (Instruction i : instructions) {
            if (i.keyword.equals("FROM")) {
                stages.add(new Stage(substituted(i.arguments, args), i.arguments, new ArrayList<>()));
            } else if (stages.isEmpty() && i.keyword.equals("ARG")) {
                String[] nameValue = i.arguments.split("=", 2);
                args.put(nameValue[0], nameValue.length > 1 ? nameValue[1] : "");
            } else if (stages.isEmpty()) {
                throw new IllegalArgumentException(i.keyword + " before the first FROM");
            } else {
                stages.get(stages.size() - 1).instructions.add(i);
            }
        }
        return new Dockerfile(Map.copyOf(args), List.copyOf(stages));
    }

    /** {@code ${NAME}} replaced by the global build argument's default; an unknown one is an error. */
    private static String substituted(String from, Map<String, String> args) {
        Matcher m = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}").matcher(from);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = args.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("FROM " + from + ": no global ARG " + m.group(1));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    Stage runtime() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no stage named " + name));
    }
}
