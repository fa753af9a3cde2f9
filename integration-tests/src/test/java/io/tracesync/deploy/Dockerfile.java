package io.tracesync.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Dockerfile as its instructions, stage by stage: comments dropped, continued lines joined. Enough of the syntax
 * for this repository's Dockerfile, not a general parser (no heredocs, no escape directive).
 */
record Dockerfile(List<Stage> stages) {

    record Instruction(String keyword, String arguments) {
    }

    /** One build stage: its FROM arguments and the instructions after it. */
    record Stage(String from, List<Instruction> instructions) {

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
        List<Stage> stages = new ArrayList<>();
        for (Instruction i : instructions) {
            if (i.keyword.equals("FROM")) {
                stages.add(new Stage(i.arguments, new ArrayList<>()));
            } else if (stages.isEmpty()) {
                throw new IllegalArgumentException(i.keyword + " before the first FROM");
            } else {
                stages.get(stages.size() - 1).instructions.add(i);
            }
        }
        return new Dockerfile(List.copyOf(stages));
    }

    Stage runtime() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no stage named " + name));
    }
}
