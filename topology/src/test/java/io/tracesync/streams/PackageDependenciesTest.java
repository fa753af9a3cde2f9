package io.tracesync.streams;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module's packages depend on each other without a cycle (the assembly in {@code io.tracesync.streams} on its
 * steps, never the other way round; the production command line on what every command line shares, {@code
 * io.tracesync.console}, never the other way round), and only the production command line's own package uses it.
 */
class PackageDependenciesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tracesync.streams", "io.tracesync.otel", "io.tracesync.app", "io.tracesync.console");

    @Test
    void noPackageIsInACycle() {
        slices().matching("io.tracesync.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void onlyTheCommandLineUsesItsPackage() {
        noClasses().that().resideOutsideOfPackage("io.tracesync.app..").should().dependOnClassesThat()
                .resideInAPackage("io.tracesync.app..").check(CLASSES);
    }
}
