package io.rmq.cli;

import java.io.PrintWriter;

/**
 * What {@code dead requeue} or {@code dead purge} did, or with {@code --dry-run} would do.
 *
 * @param topic         the topic
 * @param action        {@value #REQUEUE} or {@value #PURGE}
 * @param selection     the selection in words: {@code all}, {@code 2 members}, {@code died before <time>},
 *                      {@code content contains '<text>'}
 * @param dryRun        whether nothing was changed
 * @param count         how many messages were (dry run: are) selected and requeued or purged
 * @param ratePerSecond the rate limit of a requeue; {@code null} for a purge
 */
public record DeadActionReport(String topic, String action, String selection, boolean dryRun, long count,
        Integer ratePerSecond) implements Report {

    static final String REQUEUE = "requeue";
    static final String PURGE = "purge";

    @Override
    public void printText(PrintWriter out) {
        String messages = count + (count == 1 ? " dead message" : " dead messages");
        String done = action.equals(REQUEUE) ? "requeued" : "purged";
        if (dryRun) {
            out.println("dry run: " + messages + " of topic '" + topic + "' would be " + done + " (selection: "
                    + selection + "); nothing changed");
        } else {
            out.println(done + " " + messages + " of topic '" + topic + "' (selection: " + selection
                    + (ratePerSecond == null ? "" : ", at most " + ratePerSecond + "/s") + ")");
        }
    }
}
