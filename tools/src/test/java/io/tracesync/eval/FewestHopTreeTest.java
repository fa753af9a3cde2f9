package io.tracesync.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.core.link.LinkKey;
import io.tracesync.core.numeric.ClockMap;
import io.tracesync.core.numeric.DoubleDouble;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FewestHopTreeTest {

    private static ClockMap plus(long offset) {
        return ClockMap.of(DoubleDouble.ONE, DoubleDouble.of(offset));
    }

    /** A ring a~b~c~d~a (maps b = a + 1, c = b + 2, d = c + 4 and, inconsistently, d = a + 100) and e~f apart. */
    private static Map<LinkKey, ClockMap> links() {
        Map<LinkKey, ClockMap> m = new TreeMap<>();
        m.put(new LinkKey("a", "b"), plus(1));
        m.put(new LinkKey("b", "c"), plus(2));
        m.put(new LinkKey("c", "d"), plus(4));
        m.put(new LinkKey("a", "d"), plus(100));
        m.put(new LinkKey("e", "f"), plus(7));
        return m;
    }

    private static String describe(List<FactorRow> rows) {
        return rows.stream().map(r -> r.node() + ">" + r.reference() + ":" + r.map().applyRounded(0))
                .collect(Collectors.joining(" "));
    }

    @Test
    void firstNameIsTheRootAndPathsHaveFewestHopsTiesToTheSmallerName() {
        FewestHopTree tree = new FewestHopTree();
        Map<LinkKey, ClockMap> links = links();
        List<FactorRow> rows = tree.drainAt(5, FewestHopTree.nodesOf(links.keySet()), links);
        // c is two hops away either way: through b (smaller name), c → b → a = x − 2 − 1; d directly: x − 100.
        assertEquals("a>a:0 b>a:-1 c>a:-3 d>a:-100 e>e:0 f>e:-7", describe(rows));
        assertTrue(rows.stream().allMatch(r -> r.trueNs() == 5));
        assertTrue(rows.stream().filter(r -> !r.node().equals(r.reference())).noneMatch(FactorRow::bounded));
    }

    @Test
    void reportsOnlyTheFactorsThatChanged() {
        FewestHopTree tree = new FewestHopTree();
        Map<LinkKey, ClockMap> links = links();
        TreeSet<String> nodes = new TreeSet<>(FewestHopTree.nodesOf(links.keySet()));
        tree.drainAt(0, nodes, links);
        assertEquals("", describe(tree.drainAt(1, nodes, links)));
        links.put(new LinkKey("a", "b"), plus(10));
        links.remove(new LinkKey("e", "f"));
        // b and c (below b) change; f loses its link and becomes its own reference.
        assertEquals("b>a:-10 c>a:-12 f>f:0", describe(tree.drainAt(2, nodes, links)));
    }
}
