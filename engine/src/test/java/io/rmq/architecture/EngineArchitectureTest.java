package io.rmq.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * How the engine's packages may depend: the engine stands on its own (plain Java on Lettuce and Curator), and
 * its packages form no cycle. The module's dependencies already keep the connector out of its compile path;
 * this test also keeps out a runtime that a dependency might bring along, and names the rule for the reader.
 */
@AnalyzeClasses(packages = "io.rmq.engine", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineArchitectureTest {

    @ArchTest
    static final ArchRule theEngineKnowsNeitherTheConnectorNorARuntime = noClasses()
            .that().resideInAPackage("io.rmq.engine..")
            .should().dependOnClassesThat(resideInAnyPackage("io.rmq.connector..", "jakarta..",
                    "org.eclipse.microprofile..", "io.smallrye..").or(javaxOutsideTheJdk()))
            .because("the engine is usable and testable without CDI or Reactive Messaging; the connector adapts it");

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.rmq.engine.(**)").should().beFreeOfCycles();

    /**
     * Classes of a {@code javax} package that the JDK does not provide: {@code javax.inject} or the Java EE
     * {@code javax.annotation.PostConstruct} are caught, {@code javax.net.ssl} or {@code javax.crypto} are
     * not (the engine may need them for TLS or hashing).
     */
    private static DescribedPredicate<JavaClass> javaxOutsideTheJdk() {
        return DescribedPredicate.describe("reside in a javax package outside the JDK",
                c -> c.getPackageName().startsWith("javax.") && !isInTheJdk(c.getName()));
    }

    private static boolean isInTheJdk(String className) {
        try {
            Class.forName(className, false, ClassLoader.getPlatformClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
