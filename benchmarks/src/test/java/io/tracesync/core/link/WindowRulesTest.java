package io.tracesync.core.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.sim.OutputDirectory;
import io.tracesync.sim.Scenario;
import io.tracesync.sim.SimulationConfig;
import io.tracesync.sim.SimulationStats;
import io.tracesync.sim.Simulator;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WindowRulesTest {

    private static final List<Duration> WINDOWS = List.of(Duration.ofSeconds(15), Duration.ofMinutes(1),
            Duration.ofMinutes(4));

    @TempDir
    Path dir;

    /** 4 nodes for 6 minutes; with wander, a ±2 ppm, 2-minute cycle: relative frequencies change by up to ~210 ppb/s. */
    private Path simulate(String name, boolean wander) throws IOException {
        Scenario scenario = Scenario.build(SimulationConfig.builder().nodes(4).durationNs(Duration.ofMinutes(6).toNanos())
                .wander(wander).wanderAmplitudePpm(2).wanderPeriodNs(Duration.ofMinutes(2).toNanos()).build());
        Path out = dir.resolve(name);
        try (OutputDirectory files = new OutputDirectory(out, scenario)) {
            SimulationStats stats = new Simulator(scenario).run(files, ns -> { });
            files.finish(stats);
        }
        return out;
    }

    private static Map<String, WindowRules.Row> rows(Path run, double rate, boolean known) throws IOException {
        return new WindowRules(new WindowRules.Config(run, WINDOWS, List.of(rate), known, Duration.ofSeconds(5)))
                .run().stream().collect(Collectors.toMap(WindowRules.Row::rule, Function.identity()));
    }

    @Test
    void onLinearClocksEveryRuleHoldsTheTruthAndTheIntersectionIsNarrowest() throws IOException {
        Path run = simulate("linear", false);
        for (boolean known : new boolean[] {false, true}) {
            Map<String, WindowRules.Row> rows = rows(run, 20, known);
            assertEquals(List.of("15s", "1m", "4m", "narrowest", "intersection", "consistent", "agreeing"),
                    rows.keySet().stream().sorted((x, y) -> order(x) - order(y)).toList());
            for (WindowRules.Row r : rows.values()) {
                assertTrue(r.errorsNs().length > 100, r.rule() + ": " + r.errorsNs().length + " samples");
                assertEquals(100.0, r.insidePercent(), r.rule() + (known ? ", known delays" : ""));
            }
            for (String w : List.of("15s", "1m", "4m")) {
                assertTrue(rows.get("intersection").medianWidthNs() <= rows.get(w).medianWidthNs(), w);
            }
        }
    }

    @Test
    void bendingClocksEscapeTheLinearBoundsAndNotTheRelaxedOnes() throws IOException {
        Path run = simulate("bending", true);
        Map<String, WindowRules.Row> linear = rows(run, 0, true);
        assertTrue(linear.get("4m").insidePercent() < 100 || linear.get("4m").infeasible() > 0,
                "a 4-minute line fits a 2-minute cycle: " + linear.get("4m").insidePercent());
        Map<String, WindowRules.Row> relaxed = rows(run, 500, true);
        for (WindowRules.Row r : relaxed.values()) {
            assertEquals(100.0, r.insidePercent(), r.rule());
            assertEquals(0, r.infeasible(), r.rule());
        }
    }

    private static int order(String rule) {
        return List.of("15s", "1m", "4m", "narrowest", "intersection", "consistent", "agreeing").indexOf(rule);
    }
}
