package io.rmq.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.topic.TopicDefinition;

/**
 * Keeps {@code docs/configuration.md} in step with the attribute declarations. With
 * {@code -Drmq.docs.regenerate=true} it rewrites the table instead of failing.
 */
class AttributeTableTest {

    private static final String DOC = "docs/configuration.md";
    private static final String REGENERATE = "mvn -B -q -pl connector test -Dtest=AttributeTableTest "
            + "-Drmq.docs.regenerate=true";

    @Test
    void theDocumentedTableMatchesTheDeclarations() throws IOException {
        Path doc = locateDoc();
        String document = Files.readString(doc, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("rmq.docs.regenerate")) {
            Files.writeString(doc, AttributeTable.replaceTable(document), StandardCharsets.UTF_8);
            document = Files.readString(doc, StandardCharsets.UTF_8);
        }

        String documented = AttributeTable.extractTable(document);

        if (!documented.equals(AttributeTable.markdown())) {
            fail("The attribute table in " + doc.toAbsolutePath() + " differs from the declarations in "
                    + RmqAttribute.class.getName() + ". Do not edit the table by hand; regenerate it from the "
                    + "project root with\n  " + REGENERATE + "\nor, after 'mvn -pl connector compile', with\n  "
                    + "java -cp connector/target/classes " + AttributeTable.class.getName() + " " + DOC
                    + "\nExpected table:\n" + AttributeTable.markdown() + "\nDocumented table:\n" + documented);
        }
    }

    @Test
    void replacingTheTableKeepsTheRestOfTheDocument() {
        String document = "# Title\n\nbefore\n" + AttributeTable.BEGIN_MARKER + "\n| old |\n" + AttributeTable.END_MARKER
                + "\nafter\n";

        String replaced = AttributeTable.replaceTable(document);

        assertThat(replaced).isEqualTo("# Title\n\nbefore\n" + AttributeTable.BEGIN_MARKER + "\n"
                + AttributeTable.markdown() + AttributeTable.END_MARKER + "\nafter\n");
        assertThat(AttributeTable.extractTable(replaced)).isEqualTo(AttributeTable.markdown());
        assertThat(AttributeTable.replaceTable(replaced)).isEqualTo(replaced);
    }

    @Test
    void theTableHasOneRowPerAttribute() {
        String[] lines = AttributeTable.markdown().split("\n");

        assertThat(lines).hasSize(2 + RmqAttribute.values().length);
        assertThat(lines[2]).isEqualTo("| `redis-uri` | both | string | `redis://localhost:6379` | "
                + RmqAttribute.REDIS_URI.description() + " |");
        assertThat(AttributeTable.markdown()).contains("| `topic-type` | both | string | mandatory |",
                "| `key-prefix` | both | string | empty |", "| `max-retries` | incoming | int | `16` |",
                "| `time-range` | outgoing | long, ms | none |");
    }

    @Test
    void attributeNamesAreUniqueKebabCase() {
        assertThat(RmqAttribute.values()).extracting(RmqAttribute::attributeName)
                .doesNotHaveDuplicates()
                .allMatch(name -> name.matches("[a-z]+(-[a-z]+)*"));
        assertThat(RmqAttribute.byName("slot-amount")).contains(RmqAttribute.SLOT_AMOUNT);
        assertThat(RmqAttribute.byName("nope")).isEmpty();
    }

    @Test
    void descriptionsAreSingleLines() {
        assertThat(RmqAttribute.values()).allSatisfy(a -> assertThat(a.description()).isNotBlank().doesNotContain("\n"));
    }

    @Test
    void numericDefaultsLieWithinTheirBounds() {
        Arrays.stream(RmqAttribute.values())
                .filter(a -> a.type() == RmqAttribute.ValueType.INT || a.type() == RmqAttribute.ValueType.MILLIS)
                .forEach(a -> a.defaultValue().map(Long::parseLong).ifPresent(d ->
                        assertThat(d).as(a.attributeName()).isBetween(a.min(), a.max())));
    }

    @Test
    void defaultsAreTheEngineDefaults() {
        assertThat(RmqAttribute.SLOT_AMOUNT.defaultValue()).contains(String.valueOf(TopicDefinition.DEFAULT_SLOT_AMOUNT));
        assertThat(RmqAttribute.MAX_RETRIES.defaultValue()).contains(String.valueOf(ConsumerOptions.DEFAULT_MAX_RETRIES));
        assertThat(RmqAttribute.PREPARE_TIMEOUT.defaultValue()).contains("30000");
        assertThat(RmqAttribute.BATCH_SIZE.defaultValue()).contains("128");
        assertThat(RmqAttribute.RETRY_BACKOFF.defaultValue()).contains("1000");
        assertThat(RmqAttribute.RETRY_BACKOFF_MAX.defaultValue()).contains("60000");
        assertThat(RmqAttribute.POLL_INTERVAL.defaultValue()).contains("5000");
        assertThat(RmqAttribute.SHUTDOWN_TIMEOUT.defaultValue()).contains("10000");
        assertThat(RmqAttribute.values()).filteredOn(RmqAttribute::isMandatory).containsExactly(RmqAttribute.TOPIC_TYPE);
    }

    /** Surefire runs in the module directory; an IDE may run in the project root. */
    private static Path locateDoc() {
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 3 && dir != null; i++, dir = dir.getParent()) {
            Path candidate = dir.resolve(DOC);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return fail("cannot find " + DOC + " in " + Path.of("").toAbsolutePath() + " or its parents");
    }
}
