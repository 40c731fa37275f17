package io.rmq.cdi.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.inject.spi.AfterTypeDiscovery;
import jakarta.enterprise.inject.spi.configurator.AnnotatedTypeConfigurator;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which health beans {@link HealthBeans} adds, as seen by a class loader that hides the MicroProfile
 * Health API, SmallRye's {@code HealthReporter}, both or neither, like an application server that
 * does not serve them (Open Liberty never lets an application see SmallRye's types). Where an API
 * is hidden, the bean class that needs it must not even be loaded: loading it would fail, and on
 * Open Liberty take the connector down with it.
 */
class HealthBeansTest {

    private static final String MP_HEALTH = "org.eclipse.microprofile.health.";
    private static final String SMALLRYE_HEALTH = "io.smallrye.reactive.messaging.health.";
    private static final String CHECKS = RedisRmqHealthChecks.class.getName();
    private static final String REPORTER = RedisRmqHealthReporter.class.getName();

    @ParameterizedTest(name = "MicroProfile Health visible: {0}, SmallRye HealthReporter visible: {1}")
    @CsvSource({ "true, true", "true, false", "false, true", "false, false" })
    void addsTheBeansOfTheVisibleApisOnlyAndLoadsNoOther(boolean microProfileHealth, boolean smallRye) throws Exception {
        Set<String> hidden = new HashSet<>();
        if (!microProfileHealth) {
            hidden.add(MP_HEALTH);
        }
        if (!smallRye) {
            hidden.add(SMALLRYE_HEALTH);
        }
        List<String> added = new CopyOnWriteArrayList<>();
        try (HidingClassLoader loader = new HidingClassLoader(hidden)) {
            Class<?> beans = loader.loadClass(HealthBeans.class.getName());
            assertThat(beans.getClassLoader()).isSameAs(loader);

            beans.getMethod("addTo", AfterTypeDiscovery.class).invoke(null, recording(added));

            List<String> expected = new ArrayList<>();
            if (microProfileHealth) {
                expected.addAll(List.of(CHECKS + "$ReadinessCheck", CHECKS + "$LivenessCheck", CHECKS + "$StartupCheck"));
            }
            if (smallRye) {
                expected.add(REPORTER);
            }
            assertThat(added).containsExactlyInAnyOrderElementsOf(expected);
            if (!microProfileHealth) {
                assertThat(loader.loaded()).as("classes loaded").noneMatch(name -> name.startsWith(CHECKS));
            }
            if (!smallRye) {
                assertThat(loader.loaded()).as("classes loaded").doesNotContain(REPORTER);
            }
        }
    }

    /** An {@link AfterTypeDiscovery} that records the names of the types added to it. */
    private static AfterTypeDiscovery recording(List<String> added) {
        InvocationHandler configurator = new InvocationHandler() {
            @Override
            public Object invoke(Object proxy, Method method, Object[] args) {
                return method.getReturnType().isInstance(proxy) ? proxy : null; // add(...) returns the configurator
            }
        };
        return (AfterTypeDiscovery) Proxy.newProxyInstance(HealthBeansTest.class.getClassLoader(),
                new Class<?>[] { AfterTypeDiscovery.class }, (proxy, method, args) -> {
                    if (method.getName().equals("addAnnotatedType") && args[0] instanceof Class<?> type) {
                        added.add(type.getName());
                        return Proxy.newProxyInstance(HealthBeansTest.class.getClassLoader(),
                                new Class<?>[] { AnnotatedTypeConfigurator.class }, configurator);
                    }
                    throw new UnsupportedOperationException(method.toString());
                });
    }

    /**
     * Loads the health package itself (so that its classes resolve their own references through it),
     * hides the given packages, and delegates everything else to the test's class loader.
     */
    private static final class HidingClassLoader extends URLClassLoader {
        private final Set<String> hiddenPackages;
        private final List<String> loaded = new CopyOnWriteArrayList<>();

        HidingClassLoader(Set<String> hiddenPackages) {
            super(new URL[] { HealthBeans.class.getProtectionDomain().getCodeSource().getLocation() },
                    HealthBeansTest.class.getClassLoader());
            this.hiddenPackages = hiddenPackages;
        }

        List<String> loaded() {
            return loaded;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            for (String hidden : hiddenPackages) {
                if (name.startsWith(hidden)) {
                    throw new ClassNotFoundException(name + " (hidden by the test)");
                }
            }
            if (!name.startsWith(HealthBeans.class.getPackageName() + ".")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    loaded.add(name);
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
