package io.rmq.tck.support;

import java.lang.reflect.InvocationTargetException;

import jakarta.enterprise.inject.Instance;

/**
 * SmallRye Reactive Messaging's pausable channels ({@code ChannelRegistry.getPausable(channel)}), reached by
 * name so that the classes using this one load on a runtime that hides SmallRye's types from applications
 * (Open Liberty): {@link #available()} says whether the application sees them. Stateless.
 */
public final class SmallRyePausables {

    private static final String REGISTRY = "io.smallrye.reactive.messaging.ChannelRegistry";
    private static final String PAUSABLE = "io.smallrye.reactive.messaging.PausableChannel";

    private SmallRyePausables() {
    }

    /** Whether the application sees SmallRye's {@code ChannelRegistry} and {@code PausableChannel}. */
    public static boolean available() {
        try {
            Class.forName(REGISTRY, false, SmallRyePausables.class.getClassLoader());
            Class.forName(PAUSABLE, false, SmallRyePausables.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Resumes pausable channel {@code channel} through the {@code ChannelRegistry} bean found in {@code beans}. */
    public static void resume(Instance<Object> beans, String channel) {
        invoke(pausable(beans, channel), "resume");
    }

    /** Whether pausable channel {@code channel} is paused. */
    public static boolean isPaused(Instance<Object> beans, String channel) {
        return (Boolean) invoke(pausable(beans, channel), "isPaused");
    }

    private static Object pausable(Instance<Object> beans, String channel) {
        try {
            Class<?> registryType = Class.forName(REGISTRY, true, SmallRyePausables.class.getClassLoader());
            Object registry = beans.select(registryType).get();
            Object pausable = registryType.getMethod("getPausable", String.class).invoke(registry, channel);
            if (pausable == null) {
                throw new AssertionError("channel " + channel + " is not pausable in this runtime's ChannelRegistry");
            }
            return pausable;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach SmallRye's ChannelRegistry", unwrap(e));
        }
    }

    private static Object invoke(Object pausable, String method) {
        try {
            return Class.forName(PAUSABLE, true, SmallRyePausables.class.getClassLoader()).getMethod(method).invoke(pausable);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call PausableChannel." + method, unwrap(e));
        }
    }

    private static Throwable unwrap(ReflectiveOperationException e) {
        return e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
    }
}
