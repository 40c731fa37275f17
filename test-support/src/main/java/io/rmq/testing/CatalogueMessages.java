package io.rmq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The texts of one message catalogue, for {@link MessageCatalogues}: every public method of the catalogue's shared
 * instance is called with harmless sample arguments, and the text it produced is read (the exception's message, the
 * message text returned, or the one record it logged). Stateless.
 */
final class CatalogueMessages {

    private CatalogueMessages() {
    }

    /** Each message method of {@code catalogue} ({@code Catalogue#method}) with the text it produces. */
    static Map<String, String> produceAll(Class<?> catalogue) throws Exception {
        Map<String, String> produced = new TreeMap<>();
        Object instance = sharedInstance(catalogue);
        for (Method method : messageMethods(catalogue)) {
            produced.put(catalogue.getSimpleName() + "#" + method.getName(), produce(instance, method));
        }
        return produced;
    }

    /** The catalogue's public static instance of itself. */
    private static Object sharedInstance(Class<?> catalogue) throws IllegalAccessException {
        List<Field> instances = Arrays.stream(catalogue.getFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == catalogue)
                .toList();
        if (instances.size() != 1) {
            fail(catalogue.getName() + " must have exactly one public static instance of itself, has "
                    + instances.size());
        }
        return instances.get(0).get(null);
    }

    /** The public instance methods the catalogue declares: one message each. */
    private static List<Method> messageMethods(Class<?> catalogue) {
        return Arrays.stream(catalogue.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                        && !m.isSynthetic())
                .sorted(Comparator.comparing(Method::getName))
                .toList();
    }

    /** Calls a catalogue method with sample arguments: the exception's message, or the one record logged. */
    private static String produce(Object catalogue, Method method) throws Exception {
        String name = catalogue.getClass().getSimpleName() + "#" + method.getName();
        Object[] arguments = Arrays.stream(method.getGenericParameterTypes())
                .map(CatalogueMessages::sample).toArray();
        if (Throwable.class.isAssignableFrom(method.getReturnType())) {
            Throwable produced = (Throwable) invoke(name, catalogue, method, arguments);
            assertThat(produced).as(name + " returns the exception").isNotNull();
            return String.valueOf(produced.getMessage());
        }
        if (method.getReturnType() == String.class) {
            // the message of an exception type the catalogue's package cannot see
            return (String) invoke(name, catalogue, method, arguments);
        }
        if (method.getReturnType() != void.class) {
            fail(name + " must log (and return void), or return an exception or an exception's message");
        }
        List<LogRecord> records = recordLogs(catalogue, () -> invoke(name, catalogue, method, arguments));
        assertThat(records).as(name + " logs one record").hasSize(1);
        return new SimpleFormatter().formatMessage(records.get(0));
    }

    private static Object invoke(String name, Object catalogue, Method method, Object[] arguments) {
        try {
            return method.invoke(catalogue, arguments);
        } catch (InvocationTargetException e) {
            throw new AssertionError(name + " threw with sample arguments " + Arrays.toString(arguments),
                    e.getCause());
        } catch (IllegalAccessException e) {
            throw new AssertionError(name, e);
        }
    }

    /** Runs {@code action} with every level enabled on the catalogue's loggers and returns what they recorded. */
    private static List<LogRecord> recordLogs(Object catalogue, Runnable action) throws IllegalAccessException {
        List<Logger> loggers = new ArrayList<>();
        for (Field field : catalogue.getClass().getDeclaredFields()) {
            if (field.getType() == Logger.class) {
                field.setAccessible(true);
                loggers.add((Logger) field.get(Modifier.isStatic(field.getModifiers()) ? null : catalogue));
            }
        }
        if (loggers.isEmpty()) {
            fail(catalogue.getClass().getName() + " has no java.util.logging.Logger field to log with");
        }
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler recorder = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        recorder.setLevel(Level.ALL);
        List<Level> levels = loggers.stream().map(Logger::getLevel).toList();
        List<Boolean> parents = loggers.stream().map(Logger::getUseParentHandlers).toList();
        try {
            for (Logger logger : loggers) {
                logger.setLevel(Level.ALL);
                logger.setUseParentHandlers(false); // the samples are not worth a line in the build's output
                logger.addHandler(recorder);
            }
            action.run();
        } finally {
            for (int i = 0; i < loggers.size(); i++) {
                loggers.get(i).removeHandler(recorder);
                loggers.get(i).setLevel(levels.get(i));
                loggers.get(i).setUseParentHandlers(parents.get(i));
            }
        }
        return records;
    }

    /** A harmless value of {@code type}: a word, zero, the first enum constant, a one-element list... */
    private static Object sample(Type type) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (raw.isPrimitive()) {
            return Array.get(Array.newInstance(raw, 1), 0);
        }
        if (raw == String.class || raw == Object.class || raw == CharSequence.class) {
            return "sample";
        }
        if (Number.class.isAssignableFrom(raw) || raw == Boolean.class) {
            return sample(primitiveOf(raw));
        }
        if (raw.isEnum()) {
            return raw.getEnumConstants()[0];
        }
        if (raw == Class.class) {
            return Object.class;
        }
        if (raw == Duration.class) {
            return Duration.ofSeconds(1);
        }
        if (raw == Instant.class) {
            return Instant.EPOCH;
        }
        if (raw.isAssignableFrom(RuntimeException.class)) {
            return new RuntimeException("sample cause");
        }
        if (Throwable.class.isAssignableFrom(raw)) {
            return construct(raw, "sample cause");
        }
        if (raw.isAssignableFrom(List.class) && Collection.class.isAssignableFrom(raw)) {
            Type element = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
            return List.of(sample(element));
        }
        if (raw.isAssignableFrom(Map.class) && Map.class.isAssignableFrom(raw)) {
            Type[] kv = type instanceof ParameterizedType p ? p.getActualTypeArguments()
                    : new Type[] { Object.class, Object.class };
            return Map.of(sample(kv[0]), sample(kv[1]));
        }
        if (raw.isRecord()) {
            RecordComponent[] components = raw.getRecordComponents();
            Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
            Object[] values = Arrays.stream(components).map(c -> sample(c.getGenericType())).toArray();
            try {
                return raw.getDeclaredConstructor(types).newInstance(values);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("cannot make a sample " + raw.getName(), e);
            }
        }
        throw new AssertionError("no sample for parameter type " + type.getTypeName()
                + "; teach CatalogueMessages.sample one");
    }

    private static Class<?> primitiveOf(Class<?> boxed) {
        try {
            return (Class<?>) boxed.getField("TYPE").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no sample for " + boxed.getName(), e);
        }
    }

    private static Object construct(Class<?> type, String message) {
        try {
            return type.getConstructor(String.class).newInstance(message);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no sample for " + type.getName() + " (it needs a public (String) constructor)", e);
        }
    }
}
