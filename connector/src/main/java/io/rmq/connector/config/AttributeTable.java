package io.rmq.connector.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * Generates the attribute table of {@code docs/configuration.md} from the {@link RmqAttribute}
 * declarations. The table sits between {@link #BEGIN_MARKER} and {@link #END_MARKER}; a unit test
 * fails when it differs from {@link #markdown()}.
 *
 * <p>Regenerate with {@code java -cp connector/target/classes io.rmq.connector.config.AttributeTable
 * docs/configuration.md} (after {@code mvn -pl connector compile}), or with
 * {@code mvn -pl connector test -Dtest=AttributeTableTest -Drmq.docs.regenerate=true}.
 */
public final class AttributeTable {

    /** The line before the generated table. */
    public static final String BEGIN_MARKER = "<!-- BEGIN GENERATED ATTRIBUTE TABLE (io.rmq.connector.config.AttributeTable) -->";
    /** The line after the generated table. */
    public static final String END_MARKER = "<!-- END GENERATED ATTRIBUTE TABLE -->";

    private AttributeTable() {
    }

    /**
     * The attribute table in Markdown, one row per attribute in declaration order, each line ending
     * with {@code \n}.
     *
     * @return the table
     */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| Attribute | Direction | Type | Default | Description |\n");
        out.append("|---|---|---|---|---|\n");
        for (RmqAttribute attribute : RmqAttribute.values()) {
            out.append("| `").append(attribute.attributeName()).append("` | ")
                    .append(attribute.direction().label()).append(" | ")
                    .append(attribute.type().label()).append(" | ")
                    .append(escape(attribute.defaultLabel())).append(" | ")
                    .append(escape(attribute.description())).append(" |\n");
        }
        return out.toString();
    }

    /**
     * Replaces the table between the markers of a Markdown document.
     *
     * @param document the document, containing both markers on lines of their own
     * @return the document with the current table
     * @throws IllegalArgumentException when a marker is missing
     */
    public static String replaceTable(String document) {
        int begin = document.indexOf(BEGIN_MARKER);
        int end = document.indexOf(END_MARKER);
        if (begin < 0 || end < begin) {
            throw RmqExceptions.ex.attributeTableMarkersMissing(BEGIN_MARKER, END_MARKER);
        }
        int tableStart = begin + BEGIN_MARKER.length();
        return document.substring(0, tableStart) + "\n" + markdown() + document.substring(end);
    }

    /**
     * The table currently between the markers of a Markdown document.
     *
     * @param document the document
     * @return the text between the marker lines
     * @throws IllegalArgumentException when a marker is missing
     */
    public static String extractTable(String document) {
        int begin = document.indexOf(BEGIN_MARKER);
        int end = document.indexOf(END_MARKER);
        if (begin < 0 || end < begin) {
            throw RmqExceptions.ex.attributeTableMarkersMissing(BEGIN_MARKER, END_MARKER);
        }
        String table = document.substring(begin + BEGIN_MARKER.length(), end);
        return table.startsWith("\n") ? table.substring(1) : table;
    }

    /**
     * Prints the table, or, given the path of a Markdown document, rewrites the table in it.
     *
     * @param args nothing, or the document's path (e.g. {@code docs/configuration.md})
     * @throws IOException when the document cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(markdown());
            return;
        }
        Path path = Path.of(args[0]);
        String document = Files.readString(path, StandardCharsets.UTF_8);
        Files.writeString(path, replaceTable(document), StandardCharsets.UTF_8);
        System.out.println("Rewrote the attribute table of " + path.toAbsolutePath());
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
