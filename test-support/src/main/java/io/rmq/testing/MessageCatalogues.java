package io.rmq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

    /** The id as every message starts with it: {@code RMQ-} and four digits, then a blank and the text. */
    public static final Pattern ID = Pattern.compile("^(RMQ-\\d{4}) \\S");
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
                    produced.putAll(CatalogueMessages.produceAll(catalogue));
                } catch (Exception e) {
                    throw new AssertionError("cannot produce the messages of " + catalogue.getName(), e);
                }
            }
            messages = produced;
        }
        return messages;
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
