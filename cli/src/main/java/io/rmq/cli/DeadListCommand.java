package io.rmq.cli;

import java.io.PrintWriter;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.rmq.cli.format.ContentText;
import io.rmq.cli.format.TextTable;
import io.rmq.cli.format.TextTable.Column;
import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.DeadMessage;
import io.rmq.engine.admin.DeadPage;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code rmq dead list <topic>}: one page of dead messages. */
@Command(name = "list", header = "Pages through the dead messages of a topic: slot, time of death, deliveries, last failure, content.",
        description = "Slot after slot, oldest death first within a slot. Each page ends with the cursor of the next one. "
            + "Contents are bytes: text shows them as UTF-8 with \\\\, \\n, \\t, \\uXXXX escapes and \\xNN for bytes that are not "
            + "UTF-8; --json gives them exactly, in Base64.")
final class DeadListCommand extends AdminCommand {

    /** Messages per page when {@code --limit} is not given. */
    static final int DEFAULT_LIMIT = 20;
    /** Characters of content shown per message when {@code --preview} is not given. */
    static final int DEFAULT_PREVIEW = 60;

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @Option(names = "--cursor", paramLabel = "<slot:offset>", converter = CursorConverter.class,
            description = "Where the page starts: the cursor the previous page printed. Default: the first page (0:0).")
    DeadCursor cursor = DeadCursor.START;

    @Option(names = "--limit", paramLabel = "<n>", defaultValue = "" + DEFAULT_LIMIT,
            description = "The most messages on the page. Default: ${DEFAULT-VALUE}.")
    int limit;

    @Option(names = "--preview", paramLabel = "<chars>", defaultValue = "" + DEFAULT_PREVIEW,
            description = "Text output: the most characters of each content shown. Default: ${DEFAULT-VALUE}.")
    int preview;

    @Override
    void validate() {
        if (limit < 1) {
            throw new ParameterException(spec.commandLine(), CliMessages.ex.notPositive("--limit", limit));
        }
        if (preview < 1) {
            throw new ParameterException(spec.commandLine(), CliMessages.ex.notPositive("--preview", preview));
        }
    }

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        DeadPage page = admin.dead(definition, cursor, limit);
        return new DeadListReport(definition.name(), cursor.toString(), page.next().map(DeadCursor::toString).orElse(null),
                page.messages().stream().map(Dead::of).toList(), preview);
    }

    /**
     * A page of dead messages.
     *
     * @param topic    the topic
     * @param cursor   where the page starts
     * @param next     where the next page starts ({@code --cursor}), {@code null} after the last page
     * @param messages the page
     */
    public record DeadListReport(String topic, String cursor, String next, List<Dead> messages,
            @JsonIgnore int previewChars) implements Report {

        @Override
        public void printText(PrintWriter out) {
            if (messages.isEmpty()) {
                out.println(cursor.equals(DeadCursor.START.toString())
                        ? "no dead message in topic '" + topic + "'"
                        : "no dead message in topic '" + topic + "' from cursor " + cursor + " on");
            } else {
                out.println("dead messages of topic '" + topic + "' from cursor " + cursor + ":");
                TextTable table = new TextTable(Column.number("SLOT"), Column.text("DIED AT (UTC)"),
                        Column.number("DELIVERIES"), Column.text("CONTENT"), Column.text("LAST FAILURE"));
                for (Dead d : messages) {
                    table.row(d.slot(), d.diedAt(), d.deliveries() == null ? "?" : d.deliveries(),
                            ContentText.preview(Base64.getDecoder().decode(d.contentBase64()), previewChars),
                            d.lastFailure() == null ? "-" : ContentText.escape(d.lastFailure(), Integer.MAX_VALUE));
                }
                table.print(out);
            }
            out.println(next == null ? "(end of the dead queues)"
                    : "next page: --cursor " + next);
        }
    }

    /**
     * A dead message.
     *
     * @param slot          its slot
     * @param diedAt        when it died, ISO-8601 UTC (Redis clock)
     * @param deliveries    how many times it was delivered; {@code null} when unknown (written by another tool)
     * @param lastFailure   the last failure its consumer reported; {@code null} when unknown
     * @param contentBase64 the content, exactly (give it to {@code --member-base64})
     * @param contentUtf8   the content as text when it is valid UTF-8, else {@code null}
     */
    public record Dead(int slot, String diedAt, Integer deliveries, String lastFailure, String contentBase64,
            String contentUtf8) {

        static Dead of(DeadMessage m) {
            return new Dead(m.slot(), m.diedAt().toString(), m.deliveries() == 0 ? null : m.deliveries(),
                    m.lastFailure().isEmpty() ? null : m.lastFailure(),
                    Base64.getEncoder().encodeToString(m.content()), ContentText.utf8(m.content()).orElse(null));
        }
    }

    /** Reads {@code --cursor}; a malformed one is a usage error. */
    static final class CursorConverter implements ITypeConverter<DeadCursor> {
        @Override
        public DeadCursor convert(String value) {
            try {
                return DeadCursor.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(CliMessages.ex.badCursor(e.getMessage()));
            }
        }
    }
}
