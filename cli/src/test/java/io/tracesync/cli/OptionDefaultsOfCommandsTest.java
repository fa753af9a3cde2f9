package io.tracesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tracesync.streams.config.OptionDefaults;
import io.tracesync.streams.config.TracesyncConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line types no application default twice: every option that stands for an application key names it
 * ({@code descriptionKey}) and takes its default from {@link TracesyncConfig#CONFIG} through {@link OptionDefaults},
 * none re-types it; an option of one of those names that does not is a failure.
 */
class OptionDefaultsOfCommandsTest {

    /** The options that stand for application keys, wherever a command has one. */
    private static final Map<String, String> KEYS = Map.of(
            "--horizon", TracesyncConfig.LINK_HORIZON_CONFIG,
            "--shortest-window", TracesyncConfig.LINK_WINDOW_MIN_CONFIG,
            "--step-ppb", TracesyncConfig.LINK_STEP_PPB_CONFIG,
            "--step-interval", TracesyncConfig.LINK_STEP_INTERVAL_CONFIG,
            "--max-drift-ppm", TracesyncConfig.LINK_MAX_DRIFT_PPM_CONFIG,
            "--min-change", TracesyncConfig.LINKS_MIN_CHANGE_CONFIG,
            "--weight", TracesyncConfig.NETWORK_WEIGHT_CONFIG,
            "--reference-rule", TracesyncConfig.NETWORK_REFERENCE_RULE_CONFIG,
            "--network", TracesyncConfig.NETWORK_METHOD_CONFIG);

    @Test
    void everyOptionOfAnApplicationKeyTakesTheKeysDefault() {
        List<String> checked = new ArrayList<>();
        visit(TracesyncCommand.commandLine(), "tracesync", checked);
        assertTrue(checked.size() >= 15, "the options of sync-pairs and evaluate at least: " + checked);
    }

    private static void visit(CommandLine cmd, String path, List<String> checked) {
        for (OptionSpec o : cmd.getCommandSpec().options()) {
            String key = KEYS.get(o.longestName());
            if (key != null) {
                assertEquals(key, o.descriptionKey(), path + " " + o.longestName() + " names its key");
            }
            if (OptionDefaults.keyOf(o) != null) {
                assertNull(o.defaultValue(), path + " " + o.longestName() + " re-types the default of "
                        + o.descriptionKey());
                assertInstanceOf(OptionDefaults.class, cmd.getCommandSpec().defaultValueProvider(),
                        path + " takes its options' defaults from the keys");
                assertEquals(String.valueOf(TracesyncConfig.CONFIG.configKeys().get(o.descriptionKey()).defaultValue),
                        o.defaultValueString(), path + " " + o.longestName());
                checked.add(path + " " + o.longestName());
            }
        }
        cmd.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help") && sub.getCommandName().equals(name)) {
                visit(sub, path + " " + name, checked);
            }
        });
    }
}
