package io.rmq.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * How the engine's packages may depend: the engine stands on its own (plain Java on Lettuce and Curator), its
 * packages form no cycle, and each uses only the layers below it. The module's dependencies already keep the connector out of its compile path;
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
     * The engine's layers, the entry point on top: {@code RmqEngine} wires the consumer, the producer, the
     * pending messages' operations and the admin API beside them, the recurring schedules under the admin API;
     * consuming stands on settlement; producing, the pending messages' operations, the schedules, settlement and
     * consuming stand on the scripts' gateway; everything on the Redis connection, coordination on the topic
     * model, and all of them on the shared support and message catalogues. A layer never uses one above it.
     */
    @ArchTest
    static final ArchRule layersUseOnlyThoseBelow = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Engine").definedBy("io.rmq.engine")
            .layer("Admin").definedBy("io.rmq.engine.admin..")
            .layer("Schedule").definedBy("io.rmq.engine.schedule..")
            .layer("Consume").definedBy("io.rmq.engine.consume..")
            .layer("Settlement").definedBy("io.rmq.engine.settlement..")
            .layer("Produce").definedBy("io.rmq.engine.produce..")
            .layer("Pending").definedBy("io.rmq.engine.pending..")
            .layer("Scripts").definedBy("io.rmq.engine.scripts..")
            .layer("Coordination").definedBy("io.rmq.engine.coordination..")
            .layer("Redis").definedBy("io.rmq.engine.redis..")
            .layer("Topic").definedBy("io.rmq.engine.topic..")
            .layer("Support").definedBy("io.rmq.engine.support..", "io.rmq.engine.i18n..")
            .whereLayer("Engine").mayNotBeAccessedByAnyLayer()
            .whereLayer("Admin").mayNotBeAccessedByAnyLayer()
            .whereLayer("Schedule").mayOnlyBeAccessedByLayers("Engine", "Admin")
            .whereLayer("Consume").mayOnlyBeAccessedByLayers("Engine")
            .whereLayer("Settlement").mayOnlyBeAccessedByLayers("Engine", "Consume")
            .whereLayer("Produce").mayOnlyBeAccessedByLayers("Engine")
            .whereLayer("Pending").mayOnlyBeAccessedByLayers("Engine")
            .whereLayer("Scripts").mayOnlyBeAccessedByLayers("Engine", "Schedule", "Consume", "Settlement", "Produce",
                    "Pending")
            .whereLayer("Coordination").mayOnlyBeAccessedByLayers("Engine", "Consume")
            .whereLayer("Redis").mayOnlyBeAccessedByLayers("Engine", "Admin", "Schedule", "Consume", "Settlement",
                    "Produce", "Pending", "Scripts")
            .whereLayer("Topic").mayOnlyBeAccessedByLayers("Engine", "Admin", "Schedule", "Consume", "Settlement",
                    "Produce", "Pending", "Scripts", "Coordination", "Redis")
            .because("each package stands on those below it and is told about what happens above by listeners"
                    + " it defines, so a reader learns a package without those that use it");

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
