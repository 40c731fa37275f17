package io.rmq.engine.scripts;

import java.util.ArrayList;
import java.util.List;

/**
 * What a slot's trace hash records about one message (see {@code lib/trace.lua}): how many traced sends it stands
 * for, the W3C traceparents of the first of them (bounded by the senders), and the traceparent of its last failed
 * delivery's process span. On the wire: {@code <sends> <attempt or -> <context> <context> ...}. Immutable.
 *
 * @param sends          traced sends the message stands for (merged sends included); may exceed the contexts kept
 * @param sendContexts   the traceparents of its first sends
 * @param attemptContext the traceparent of its last failed delivery's process span, {@code null} for none
 */
public record TraceEntry(long sends, List<String> sendContexts, String attemptContext) {

    public TraceEntry {
        sendContexts = List.copyOf(sendContexts);
    }

    /** The entry as the scripts write it, or {@code null} for an entry that is not in that form (written by hand). */
    public static TraceEntry parse(String wire) {
        if (wire == null) {
            return null;
        }
        String[] parts = wire.split(" ");
        if (parts.length < 2) {
            return null;
        }
        long sends;
        try {
            sends = Long.parseLong(parts[0]);
        } catch (NumberFormatException e) {
            return null;
        }
        List<String> contexts = new ArrayList<>(parts.length - 2);
        for (int i = 2; i < parts.length; i++) {
            if (!parts[i].isEmpty()) {
                contexts.add(parts[i]);
            }
        }
        return new TraceEntry(sends, contexts, "-".equals(parts[1]) ? null : parts[1]);
    }

    /** This entry with {@code context} as the last failed delivery's. */
    public TraceEntry withAttempt(String context) {
        return new TraceEntry(sends, sendContexts, context);
    }

    /** The entry as the scripts read it. */
    public String wire() {
        StringBuilder b = new StringBuilder().append(sends).append(' ').append(attemptContext == null ? "-" : attemptContext);
        sendContexts.forEach(c -> b.append(' ').append(c));
        return b.toString();
    }
}
