package io.rmq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.DynamicTest;

/**
 * The message-catalogue checker of every module: every message starts with a well-formed id, no id is
 * declared twice (within the module's catalogues, nor against the catalogues of the modules it builds on),
 * every message is used by production code, and a module that has catalogues writes no id outside them.
 *
 * <p>A catalogue is a class with one public static instance of itself ({@code RmqLogging.log},
 * {@code EngineExceptions.ex}) whose public methods each either log one record through a
 * {@code java.util.logging.Logger} held in a field (and return {@code void}), or return an exception
 * (or the message of one, for exception types the catalogue's package cannot see).
 * The checker calls every method with sample arguments and reads the text produced, so it needs no list
 * of ids of its own.
 *
 * <p>A module's test names its own catalogues and returns the checks ({@link #checks()}) from a test factory:
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> catalogues() {
 *     return MessageCatalogues.of(RmqLogging.class, RmqExceptions.class)
 *             .alongside(EngineLogging.class, EngineExceptions.class)
 *             .checks();
 * }
 * }</pre>
 * The source checks read {@code src/main/java} of the working directory: the module's own, as Surefire runs
 * it. Not thread-safe; one instance per test class.
 */
public final class MessageCatalogues {

    /** The default id: {@code RMQ-} and four digits, then a non-digit or the end. */
    public static final Pattern ID = Pattern.compile("^(RMQ-\\d{4})(?!\\d)");
    /** A string literal that starts with an id: how a message built outside a catalogue shows in the source. */
    private static final Pattern ID_LITERAL = Pattern.compile("\"RMQ-\\d{4}");
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");

    private final List<Class<?>> own;
    private final List<Class<?>> others;
    private final Pattern id;
    /** Each catalogue method ({@code Class#method}) with the text it produced, own and others; made on first use. */
    private Map<String, String> messages;

    private MessageCatalogues(List<Class<?>> own, List<Class<?>> others, Pattern id) {
        if (own.isEmpty()) {
            throw new IllegalArgumentException("name at least one catalogue of the module");
        }
        this.own = own;
        this.others = others;
        this.id = id;
    }

    /** The catalogues of the module under test, checked with the default {@link #ID}. */
    public static MessageCatalogues of(Class<?>... catalogues) {
        return new MessageCatalogues(List.of(catalogues), List.of(), ID);
    }

    /**
     * The catalogues of the modules this one builds on: their ids must not be declared again here. Only their
     * ids are read; the other checks are theirs to run.
     */
    public MessageCatalogues alongside(Class<?>... catalogues) {
        return new MessageCatalogues(own, List.of(catalogues), id);
    }

    /**
     * A stricter id for this module's messages (its range, e.g. {@code ^(RMQ-09\d\d) \S}), whose first group
     * is the id.
     */
    public MessageCatalogues withIds(Pattern moduleId) {
        return new MessageCatalogues(own, others, moduleId);
    }

    /**
     * The four checks, as the dynamic tests of a module's {@code @TestFactory} method: every message starts with a
     * well-formed id, no id is declared twice, every message is used by production code, no id is written outside
     * the catalogues.
     */
    public Stream<DynamicTest> checks() {
        return Stream.of(
                dynamicTest("every message starts with a well-formed id", this::everyMessageStartsWithAWellFormedId),
                dynamicTest("no id is declared twice", this::noIdIsDeclaredTwice),
                dynamicTest("every message is used by production code", this::everyMessageIsUsedByProductionCode),
                dynamicTest("no id is written outside the catalogues", this::noIdIsWrittenOutsideTheCatalogues));
    }

    /** Every message of the module's catalogues starts with an id of the module's form. */
    public void everyMessageStartsWithAWellFormedId() {
        Map<String, String> produced = ownMessages();
        assertThat(produced).isNotEmpty();
        List<String> malformed = produced.entrySet().stream()
                .filter(e -> !id.matcher(e.getValue()).find())
                .map(e -> e.getKey() + ": " + e.getValue())
                .toList();
        assertThat(malformed).as("messages that do not start with an id matching " + id).isEmpty();
    }

    /** No id is declared by two methods, of this module's catalogues or of one of them and one it builds on. */
    public void noIdIsDeclaredTwice() {
        Map<String, List<String>> methodsById = new TreeMap<>();
        messages().forEach((method, text) -> {
            Matcher found = ID.matcher(text);
            if (found.find()) {
                methodsById.computeIfAbsent(found.group(1), k -> new ArrayList<>()).add(method);
            }
        });
        Map<String, List<String>> duplicates = methodsById.entrySet().stream()
                .filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
        assertThat(duplicates).as("ids declared by more than one catalogue method").isEmpty();
    }

    /** Every message of the module's catalogues is used by a production class other than its catalogue. */
    public void everyMessageIsUsedByProductionCode() {
        JavaClasses production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(own.stream().map(MessageCatalogues::modulePackage).distinct().toList());
        List<String> unused = new ArrayList<>();
        for (Class<?> catalogue : own) {
            JavaClass owner = production.get(catalogue);
            owner.getMethods().stream()
                    .filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC)
                            && !m.getModifiers().contains(JavaModifier.STATIC)
                            && !m.getModifiers().contains(JavaModifier.SYNTHETIC))
                    .filter(m -> !isUsedOutside(m, owner))
                    .map(m -> catalogue.getSimpleName() + "#" + m.getName())
                    .forEach(unused::add);
        }
        assertThat(unused).as("catalogue messages that no production class outside the catalogue uses "
                + "(use them where the event happens, or remove them and retire their ids)").isEmpty();
    }

    /**
     * In the packages of the module ({@code io.rmq.connector} for {@code io.rmq.connector.i18n}), a message
     * with an id is built only by a catalogue.
     */
    public void noIdIsWrittenOutsideTheCatalogues() {
        List<Path> catalogueFiles = own.stream().map(MessageCatalogues::sourceFile).toList();
        List<String> inline = new ArrayList<>();
        for (Path module : own.stream().map(MessageCatalogues::moduleSources).distinct().toList()) {
            try (Stream<Path> files = Files.walk(module)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    if (catalogueFiles.contains(file)) {
                        continue;
                    }
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        if (ID_LITERAL.matcher(lines.get(i)).find()) {
                            inline.add(MAIN_SOURCES.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(inline).as("messages with an id built outside the catalogues").isEmpty();
    }

    private Map<String, String> ownMessages() {
        Map<String, String> all = messages();
        Map<String, String> mine = new TreeMap<>();
        for (Class<?> catalogue : own) {
            all.forEach((method, text) -> {
                if (method.startsWith(catalogue.getSimpleName() + "#")) {
                    mine.put(method, text);
                }
            });
        }
        return mine;
    }

    private Map<String, String> messages() {
        if (messages == null) {
            Map<String, String> produced = new TreeMap<>();
            for (Class<?> catalogue : Stream.concat(own.stream(), others.stream()).toList()) {
                try {
                    Object instance = sharedInstance(catalogue);
                    for (Method method : messageMethods(catalogue)) {
                        produced.put(catalogue.getSimpleName() + "#" + method.getName(), produce(instance, method));
                    }
                } catch (Exception e) {
                    throw new AssertionError("cannot produce the messages of " + catalogue.getName(), e);
                }
            }
            messages = produced;
        }
        return messages;
    }

    // ---- producing a message

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
                .map(MessageCatalogues::sample).toArray();
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
                + "; teach MessageCatalogues.sample one");
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

    // ---- usage and sources

    /** Whether a class other than the catalogue (and its nested classes) calls or references the method. */
    private static boolean isUsedOutside(JavaMethod method, JavaClass catalogue) {
        return method.getAccessesToSelf().stream()
                .map(access -> access.getOriginOwner().getName())
                .anyMatch(origin -> !origin.equals(catalogue.getName())
                        && !origin.startsWith(catalogue.getName() + "$"));
    }

    private static Path sourceFile(Class<?> catalogue) {
        return MAIN_SOURCES.resolve(catalogue.getName().replace('.', '/') + ".java");
    }

    /** The package of the module a catalogue belongs to: its package's parent ({@code io.rmq.connector}). */
    private static String modulePackage(Class<?> catalogue) {
        String pkg = catalogue.getPackageName();
        return pkg.substring(0, pkg.lastIndexOf('.'));
    }

    /** The sources of the module a catalogue belongs to. */
    private static Path moduleSources(Class<?> catalogue) {
        return MAIN_SOURCES.resolve(modulePackage(catalogue).replace('.', '/'));
    }
}
