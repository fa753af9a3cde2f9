package io.tracesync.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * Runs the packaged application as a user does, on the sample file with known clocks, and checks that the true
 * conversion lies inside the guaranteed bound that tracesync reports.
 */
class PackagedCliTest {

    @Test
    void sampleFileTruthLiesInsideTheReportedBound() throws Exception {
        JsonNode root = new ObjectMapper().readTree(
                PackagedJar.TOOLS.run("sync-pairs", "--pairs", "examples/two-nodes.csv", "--json"));
        assertEquals("alpha", root.get("reference").asText());
        JsonNode bravo = root.get("nodes").get(1);
        assertEquals("bravo", bravo.get("node").asText());
        BigDecimal slope = new BigDecimal(bravo.get("slope").asText());
        BigDecimal offset = new BigDecimal(bravo.get("offset").asText());
        BigDecimal bound = bravo.get("bound_ns").decimalValue();
        // Clocks of examples/README.md; check at bravo's time of the end of the trace (where the bound holds).
        BigDecimal e = new BigDecimal("1700000000000000000");
        BigDecimal ob = e.add(new BigDecimal("3600123456789"));
        MathContext mc = new MathContext(50);
        BigDecimal ratio = new BigDecimal("1.000025").divide(new BigDecimal("0.999983"), mc);
        BigDecimal tb = ob.add(new BigDecimal("299.99e9").multiply(new BigDecimal("0.999983")));
        BigDecimal truth = tb.subtract(ob).multiply(ratio).add(e);
        BigDecimal converted = slope.multiply(tb).add(offset);
        BigDecimal error = converted.subtract(truth).abs();
        assertTrue(error.compareTo(bound.add(BigDecimal.ONE)) <= 0, "error " + error + " ns beyond bound " + bound);
        // about one minimum delay (80 µs) and what the clock model allows (examples/README.md)
        assertTrue(bound.compareTo(new BigDecimal("110000")) < 0, "bound " + bound);
    }

    @Test
    void helpWorksFromThePackagedJar() throws Exception {
        assertTrue(PackagedJar.TOOLS.run("--help").contains("sync-pairs"));
    }
}
