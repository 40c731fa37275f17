package io.rmq.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import io.rmq.connector.RmqCodec;
import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.RmqConfigurationException;
import io.rmq.connector.i18n.RmqExceptions;

/**
 * How the production packages under {@code io.rmq} may depend on each other: the engine stands on its
 * own (plain Java on Lettuce and Curator), and no packages form a cycle.
 */
@AnalyzeClasses(packages = "io.rmq", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule theEngineKnowsNeitherTheConnectorNorARuntime = noClasses()
            .that().resideInAPackage("io.rmq.engine..")
            .should().dependOnClassesThat(resideInAnyPackage("io.rmq.connector..", "jakarta..",
                    "org.eclipse.microprofile..", "io.smallrye..").or(javaxOutsideTheJdk()))
            .because("the engine is usable and testable without CDI or Reactive Messaging; the connector adapts it");

    /**
     * Each package is a slice. Two dependencies inside the connector are accepted although they close
     * cycles, because the public API pins them (moving either type would break applications and
     * {@code docs/configuration.md}):
     * <ul>
     * <li>the channel configurations ({@code config}) hand out the application's codec, typed as the
     *     public {@link RmqCodec} of {@code io.rmq.connector}, the package of the connector that reads
     *     them;</li>
     * <li>the exception catalogue ({@code i18n}) builds the public {@link RmqConfigurationException} of
     *     {@code config} (RMQ-2001), which the configurations throw.</li>
     * </ul>
     * Nothing else may close a cycle through them.
     */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.rmq.(**)")
            .should().beFreeOfCycles()
            .ignoreDependency(resideInAPackage("io.rmq.connector.config"), equivalentTo(RmqCodec.class))
            .ignoreDependency(equivalentTo(RmqExceptions.class),
                    equivalentTo(RmqConfigurationException.class).or(equivalentTo(ConfigProblem.class)));

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
