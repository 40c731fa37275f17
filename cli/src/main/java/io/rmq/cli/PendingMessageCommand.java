package io.rmq.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import io.rmq.cli.format.ContentText;
import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;

/**
 * A command on one pending message, found in the slot producers route it to. Exit status
 * {@link ExitCodes#NOT_PENDING} when it is not pending there.
 */
abstract class PendingMessageCommand extends AdminCommand {

    /** The most characters of the content the report shows. */
    static final int MEMBER_PREVIEW = 60;

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @Parameters(index = "1", paramLabel = "<member>", description = "The message's content (UTF-8 text; Base64 with --base64).")
    String member;

    @Option(names = "--slot-basis", paramLabel = "<basis>",
            description = "The slot basis the message was sent with (withSlotBasis); without it, the slot is the content's.")
    String slotBasis;

    @Option(names = "--base64", description = "<member> is Base64 (binary contents).")
    boolean base64;

    private byte[] content;

    /** The action's name in the report: {@code remove}, {@code due-now}. */
    abstract String action();

    /** Acts on the message; whether it was pending. */
    abstract boolean act(RmqAdmin admin, TopicDefinition topic, byte[] content, String slotBasis);

    @Override
    void validate() {
        if (!base64) {
            content = member.getBytes(StandardCharsets.UTF_8);
            return;
        }
        try {
            content = Base64.getDecoder().decode(member);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), CliMessages.ex.badBase64(member));
        }
    }

    @Override
    final Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        int slot = SlotRouter.slotOf(slotBasis, content, definition.slotAmount());
        boolean pending = act(admin, definition, content, slotBasis);
        return new PendingReport(definition.name(), action(), slot, pending, ContentText.preview(content, MEMBER_PREVIEW));
    }

    /**
     * What {@code pending remove} or {@code pending due-now} did.
     *
     * @param topic   the topic
     * @param action  {@code remove} or {@code due-now}
     * @param slot    the slot the message was looked for in
     * @param pending whether it was pending there (and so was removed, or made due); exit status 3 when not
     * @param member  the content, escaped and shortened as text output shows it
     */
    public record PendingReport(String topic, String action, int slot, boolean pending, String member) implements Report {

        /** The action of {@code rmq pending remove}. */
        static final String REMOVE = "remove";
        /** The action of {@code rmq pending due-now}. */
        static final String DUE_NOW = "due-now";

        @Override
        public void printText(PrintWriter out) {
            String where = "slot " + slot + " of topic '" + topic + "'";
            if (!pending) {
                out.println("'" + member + "' is not pending in " + where + ": nothing changed (it may be in flight or"
                        + " dead, or sent with a slot basis: give --slot-basis)");
            } else if (action.equals(REMOVE)) {
                out.println("removed '" + member + "' from " + where);
            } else {
                out.println("'" + member + "' is due now in " + where);
            }
        }

        @Override
        public int exitCode() {
            return pending ? ExitCodes.OK : ExitCodes.NOT_PENDING;
        }
    }
}
