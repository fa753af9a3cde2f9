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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/ARCHITECTURE.md's tables of the modules and of the packages, with their arrows, are the build's own: the
 * modules' from the root pom's modules and each module's declared dependencies, the packages' from the imports of
 * every main source file, so that the house they describe is the one the compiler sees. When a module, a dependency
 * or an import between packages changes, regenerate them with
 * {@code ./mvnw -pl integration-tests surefire:test -Dtest=ArchitectureTablesTest -Dtracesync.docs.update=true}.
 */
class ArchitectureTablesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOC = ROOT.resolve("docs").resolve("ARCHITECTURE.md");
    private static final Table MODULES = new Table(
            "<!-- the modules' table: generated from their pom.xml by ArchitectureTablesTest -->",
            "<!-- end of the modules' table -->");
    private static final Table PACKAGES = new Table(
            "<!-- the packages' table: generated from the main sources' imports by ArchitectureTablesTest -->",
            "<!-- end of the packages' table -->");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.tracesync(?:\\.[a-z]\\w*)*)\\.[A-Z]",
            Pattern.MULTILINE);

    /** Where a generated table stands in the document: between its two markers. */
    private record Table(String begin, String end) {
    }
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

    static String modules() throws Exception {
        StringBuilder b = new StringBuilder(MODULES.begin()).append('\n')
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
        return b.append(MODULES.end()).append('\n').toString();
    }

    /**
     * Every package of the main sources, its module, and the other packages of the project it imports from
     * (generated Avro classes are {@code io.tracesync.avro}, in schemas).
     */
    static String packages() throws Exception {
        // by package, then module: a package may lie in two modules (a benchmark beside the core's internals)
        Map<String, TreeSet<String>> uses = new TreeMap<>();
        for (String module : children(pom(ROOT), "modules", "module")) {
            Path sources = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String pkg = sources.relativize(f.getParent()).toString().replace('/', '.');
                    TreeSet<String> used = uses.computeIfAbsent(pkg + " | " + module, p -> new TreeSet<>());
                    Matcher m = IMPORT.matcher(Files.readString(f));
                    while (m.find()) {
                        if (!m.group(1).equals(pkg)) {
                            used.add(m.group(1).substring("io.tracesync.".length()));
                        }
                    }
                }
            }
        }
        StringBuilder b = new StringBuilder(PACKAGES.begin()).append('\n')
                .append("| package | module | imports from |\n|---|---|---|\n");
        uses.forEach((row, used) -> b.append("| `").append(row.replaceFirst(" \\| ", "` | ")).append(" | ")
                .append(String.join(", ", used)).append(" |\n"));
        return b.append(PACKAGES.end()).append('\n').toString();
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
    void theDocumentsTablesAreTheBuilds() throws Exception {
        String doc = Files.readString(DOC);
        Map<Table, String> generated = Map.of(MODULES, modules(), PACKAGES, packages());
        for (Map.Entry<Table, String> t : generated.entrySet()) {
            int begin = doc.indexOf(t.getKey().begin());
            int end = doc.indexOf(t.getKey().end());
            assertTrue(begin >= 0 && end > begin, DOC + " has no table between " + t.getKey().begin() + " and "
                    + t.getKey().end());
            doc = doc.substring(0, begin) + t.getValue() + doc.substring(end + t.getKey().end().length() + 1);
        }
        if (Boolean.getBoolean("tracesync.docs.update")) {
            Files.writeString(DOC, doc);
        }
        assertEquals(doc.lines().toList(), Files.readString(DOC).lines().toList(), "a table of docs/ARCHITECTURE.md "
                + "is stale: regenerate it with ./mvnw -pl integration-tests surefire:test "
                + "-Dtest=ArchitectureTablesTest -Dtracesync.docs.update=true");
    }
}
