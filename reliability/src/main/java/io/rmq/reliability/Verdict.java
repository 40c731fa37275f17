package io.rmq.reliability;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code HistoryChecker} found in a history. Immutable.
 *
 * @param acked              sends the queue acknowledged (distinct messages)
 * @param nacked             sends refused or not confirmed, and never acknowledged later
 * @param deliveries         deliveries recorded, redeliveries included
 * @param deliveredMessages  distinct messages delivered at least once
 * @param lost               acknowledged sends never delivered nor dead-lettered, oldest first
 * @param duplicates         messages delivered more than once, with their delivery counts
 * @param deadLettered       messages found in a dead queue
 * @param deliveredInDoubt   delivered messages whose send was not acknowledged (stored although the reply failed)
 * @param overlaps           per-key overlaps (empty when not checked)
 * @param overlapsChecked    whether overlaps were looked for
 */
public record Verdict(int acked, int nacked, int deliveries, int deliveredMessages, List<History.Send> lost,
        Map<String, Integer> duplicates, Set<String> deadLettered, int deliveredInDoubt,
        List<Overlap> overlaps, boolean overlapsChecked) {

    /** The header of {@link #tableRow}, a Markdown table's first two lines. */
    public static final String TABLE_HEADER = "| scenario | messages | faults injected | lost | duplicates | dead-lettered"
            + " | nacked sends | per-key overlaps | recovery |\n|---|---:|---|---:|---:|---:|---:|---:|---|";

    public Verdict {
        lost = List.copyOf(lost);
        duplicates = Map.copyOf(duplicates);
        deadLettered = Set.copyOf(deadLettered);
        overlaps = List.copyOf(overlaps);
    }

    /** Deliveries beyond the first of each message. */
    public int extraDeliveries() {
        return duplicates.values().stream().mapToInt(n -> n - 1).sum();
    }

    /** The highest number of deliveries of one message (1 when there is no duplicate, 0 when nothing was delivered). */
    public int maxDeliveries() {
        return duplicates.values().stream().mapToInt(Integer::intValue).max().orElse(deliveredMessages > 0 ? 1 : 0);
    }

    /** Whether nothing acknowledged was lost and, when checked, no key was processed twice at once. */
    public boolean holds() {
        return lost.isEmpty() && overlaps.isEmpty();
    }

    /** One line: {@code acked=... delivered=... lost=0 duplicates=3 (max 2 deliveries) ...}. */
    public String summary() {
        return "acked=" + acked + " nacked=" + nacked + " delivered=" + deliveredMessages + " (" + deliveries
                + " deliveries) lost=" + lost.size() + " duplicates=" + duplicates.size() + " (max " + maxDeliveries()
                + " deliveries) dead-lettered=" + deadLettered.size() + " delivered-in-doubt=" + deliveredInDoubt
                + " overlaps=" + (overlapsChecked ? Integer.toString(overlaps.size()) : "not checked");
    }

    /** A row of the table under {@link #TABLE_HEADER}. */
    public String tableRow(String scenario, String faults, String recovery) {
        return "| " + scenario + " | " + acked + " | " + faults + " | " + lost.size() + " | " + duplicates.size()
                + " | " + deadLettered.size() + " | " + nacked + " | "
                + (overlapsChecked ? Integer.toString(overlaps.size()) : "n/a") + " | " + recovery + " |";
    }

    /** A readable account of what went wrong (the first few lost messages and overlaps), for an assertion message. */
    public String problems() {
        StringBuilder b = new StringBuilder(summary());
        lost.stream().limit(10).forEach(s -> b.append("\n  lost: ").append(s));
        overlaps.stream().limit(10).forEach(o -> b.append("\n  overlap: ").append(o));
        return b.toString();
    }
}
