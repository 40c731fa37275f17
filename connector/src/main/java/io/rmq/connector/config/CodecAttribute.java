package io.rmq.connector.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Optional;

import io.rmq.connector.RmqCodec;

/**
 * Instantiates the codec a channel's {@code codec} attribute names: a class implementing {@link RmqCodec}
 * with a public no-arg constructor, loaded by the application's class loader first. Stateless.
 */
final class CodecAttribute {

    private CodecAttribute() {
    }

    /**
     * The codec named by {@code className} (the raw {@code codec} value), instantiated; empty when none is
     * named or it cannot be created (recorded).
     */
    static Optional<RmqCodec> instantiate(ChannelAttributes a, Optional<String> className) {
        if (className.isEmpty()) {
            return Optional.empty();
        }
        String name = className.get();
        try {
            Class<?> type = loadClass(name);
            if (!RmqCodec.class.isAssignableFrom(type)) {
                return codecProblem(a, name, "the class does not implement " + RmqCodec.class.getName());
            }
            if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
                return codecProblem(a, name, "the class is abstract");
            }
            Object codec = type.getConstructor().newInstance();
            return Optional.of((RmqCodec) codec);
        } catch (ClassNotFoundException | LinkageError e) {
            return codecProblem(a, name, "the class cannot be loaded (" + e + ")");
        } catch (NoSuchMethodException e) {
            return codecProblem(a, name, "the class has no public no-arg constructor");
        } catch (InvocationTargetException e) {
            return codecProblem(a, name, "its constructor threw " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return codecProblem(a, name, "it cannot be instantiated (" + e + ")");
        }
    }

    private static Optional<RmqCodec> codecProblem(ChannelAttributes a, String className, String reason) {
        a.problem(RmqAttribute.CODEC, className, reason + "; the fully qualified name of a class implementing "
                + RmqCodec.class.getName() + " with a public no-arg constructor is required");
        return Optional.empty();
    }

    /** Loads with the thread context class loader (the application's) first, then with the connector's. */
    private static Class<?> loadClass(String name) throws ClassNotFoundException {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            try {
                return Class.forName(name, false, context);
            } catch (ClassNotFoundException e) {
                // fall back to the connector's loader
            }
        }
        return Class.forName(name, false, RmqCodec.class.getClassLoader());
    }
}
