package io.tracesync.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The tools use what every command line shares ({@code io.tracesync.console}), not the production command line's
 * package: only the repository's command, which offers the production commands among its own, names them. Their
 * packages depend on each other without a cycle.
 */
class PackageDependenciesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tracesync.cli", "io.tracesync.csv", "io.tracesync.demo", "io.tracesync.eval",
                    "io.tracesync.faults", "io.tracesync.lttng", "io.tracesync.offline", "io.tracesync.otlp",
                    "io.tracesync.pcap");

    @Test
    void onlyTheRepositoryCommandNamesTheProductionCommands() {
        noClasses().that().doNotHaveFullyQualifiedName(TracesyncCommand.class.getName()).should()
                .dependOnClassesThat().resideInAPackage("io.tracesync.app..").check(CLASSES);
    }

    @Test
    void noPackageIsInACycle() {
        slices().matching("io.tracesync.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
