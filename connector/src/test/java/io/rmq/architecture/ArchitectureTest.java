package io.rmq.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import io.rmq.connector.RmqCodec;
import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.RmqConfigurationException;
import io.rmq.connector.i18n.RmqExceptions;

/**
 * How the production packages under {@code io.rmq} seen from the connector (its own and the engine's) may
 * depend on each other: no packages form a cycle. That the engine does not depend on the connector is the
 * engine module's rule ({@code EngineArchitectureTest}), which its dependencies also enforce.
 */
@AnalyzeClasses(packages = { "io.rmq.connector", "io.rmq.engine" }, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

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
}
