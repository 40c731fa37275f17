package io.rmq.cdi.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.AfterTypeDiscovery;

/**
 * Adds the health beans that the application's runtime can use, and no other: the MicroProfile Health
 * checks ({@link RedisRmqHealthChecks}) when the MicroProfile Health API is visible, the SmallRye
 * reporter ({@link RedisRmqHealthReporter}) when SmallRye's {@code HealthReporter} is.
 *
 * <p>Visibility is asked of this class's own class loader, the one that would load those beans and
 * link them against the API: on Open Liberty it sees {@code org.eclipse.microprofile.health} when the
 * server has an {@code mpHealth} feature, and never SmallRye's types. A bean class whose API is not
 * visible is never loaded: this class names the bean classes only in the branches that add them.
 * Stateless; called by the extension on the container's thread.
 */
public final class HealthBeans {

    /** The type whose visibility tells that the MicroProfile Health API is there. */
    static final String MICROPROFILE_HEALTH_CHECK = "org.eclipse.microprofile.health.HealthCheck";
    /** The type whose visibility tells that SmallRye Reactive Messaging's health reporting is there. */
    static final String SMALLRYE_HEALTH_REPORTER = "io.smallrye.reactive.messaging.health.HealthReporter";

    private HealthBeans() {
    }

    /** Adds the health beans whose API the application sees; see the class comment. */
    public static void addTo(AfterTypeDiscovery event) {
        ClassLoader loader = HealthBeans.class.getClassLoader();
        if (isVisible(MICROPROFILE_HEALTH_CHECK, loader)) {
            addMicroProfileHealthChecks(event);
        }
        if (isVisible(SMALLRYE_HEALTH_REPORTER, loader)) {
            event.addAnnotatedType(RedisRmqHealthReporter.class, id("reporter"));
        }
    }

    private static void addMicroProfileHealthChecks(AfterTypeDiscovery event) {
        // application-scoped here rather than annotated: a class with a bean-defining annotation would be
        // discovered by containers that ignore bean-discovery-mode="none" (Quarkus), with or without the API
        event.addAnnotatedType(RedisRmqHealthChecks.ReadinessCheck.class, id("readiness"))
                .add(ApplicationScoped.Literal.INSTANCE);
        event.addAnnotatedType(RedisRmqHealthChecks.LivenessCheck.class, id("liveness"))
                .add(ApplicationScoped.Literal.INSTANCE);
        event.addAnnotatedType(RedisRmqHealthChecks.StartupCheck.class, id("startup"))
                .add(ApplicationScoped.Literal.INSTANCE);
    }

    private static String id(String bean) {
        return HealthBeans.class.getName() + "." + bean;
    }

    /** Whether {@code className} can be loaded through {@code loader}, without initializing it. */
    static boolean isVisible(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
