package io.tracesync.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/ARCHITECTURE.md's table of the modules and their arrows is the build's own: generated from the root pom's
 * modules and each module's declared dependencies, so that the house it describes is the one the compiler
 * enforces. When a module or a dependency changes, regenerate it with
 * {@code ./mvnw -pl integration-tests surefire:test -Dtest=ModulesTableTest -Dtracesync.docs.update=true}.
 */
class ModulesTableTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOC = ROOT.resolve("docs").resolve("ARCHITECTURE.md");
    private static final String BEGIN = "<!-- the modules' table: generated from their pom.xml by ModulesTableTest -->";
    private static final String END = "<!-- end of the modules' table -->";
    private static final String PREFIX = "tracesync-";

    /** One dependency as a pom declares it. */
    private record Dependency(String group, String artifact, String scope, String type) {

        boolean ours() {
            return group.equals("io.tracesync");
        }

        String name() {
            String name = ours() ? artifact.substring(PREFIX.length()) : artifact;
            return type.equals("test-jar") ? name + " (its tests)" : name;
        }
    }

    static String table() throws Exception {
        StringBuilder b = new StringBuilder(BEGIN).append('\n')
                .append("| module | uses the modules | at run time only | in its tests only | libraries |\n")
                .append("|---|---|---|---|---|\n");
        for (String module : children(pom(ROOT), "modules", "module")) {
            Map<String, TreeSet<String>> columns = new TreeMap<>();
            for (Dependency d : dependencies(pom(ROOT.resolve(module)))) {
                String column = d.scope().equals("test") ? "test" : d.scope().equals("runtime") ? "runtime"
                        : d.ours() ? "uses" : "libraries";
                columns.computeIfAbsent(column, c -> new TreeSet<>()).add(d.name());
            }
            b.append("| `").append(module).append("` | ").append(cell(columns, "uses")).append(" | ")
                    .append(cell(columns, "runtime")).append(" | ").append(cell(columns, "test")).append(" | ")
                    .append(cell(columns, "libraries")).append(" |\n");
        }
        return b.append(END).append('\n').toString();
    }

    private static String cell(Map<String, TreeSet<String>> columns, String column) {
        TreeSet<String> names = columns.get(column);
        return names == null ? "" : String.join(", ", names);
    }

    private static Element pom(Path dir) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("pom.xml").toFile())
                .getDocumentElement();
    }

    /** The texts of {@code project/<list>/<item>}. */
    private static List<String> children(Element project, String list, String item) {
        List<String> out = new ArrayList<>();
        for (Element l : elements(project, list)) {
            elements(l, item).forEach(e -> out.add(e.getTextContent().strip()));
        }
        return out;
    }

    /** The project's own dependencies (not those it manages for others). */
    private static List<Dependency> dependencies(Element project) {
        List<Dependency> out = new ArrayList<>();
        for (Element list : elements(project, "dependencies")) {
            for (Element d : elements(list, "dependency")) {
                out.add(new Dependency(text(d, "groupId", ""), text(d, "artifactId", ""), text(d, "scope", "compile"),
                        text(d, "type", "jar")));
            }
        }
        return out;
    }

    private static String text(Element parent, String name, String otherwise) {
        List<Element> found = elements(parent, name);
        return found.isEmpty() ? otherwise : found.get(0).getTextContent().strip();
    }

    private static List<Element> elements(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void theDocumentsTableIsTheBuilds() throws Exception {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertTrue(begin >= 0 && end > begin, DOC + " has no modules' table between " + BEGIN + " and " + END);
        String generated = table();
        String updated = doc.substring(0, begin) + generated + doc.substring(end + END.length() + 1);
        if (Boolean.getBoolean("tracesync.docs.update")) {
            Files.writeString(DOC, updated);
        }
        assertEquals(generated.lines().toList(), Files.readString(DOC).substring(begin).lines()
                .limit(generated.lines().count()).toList(), "the modules' table of docs/ARCHITECTURE.md is stale: "
                + "regenerate it with ./mvnw -pl integration-tests surefire:test -Dtest=ModulesTableTest "
                + "-Dtracesync.docs.update=true");
    }
}
