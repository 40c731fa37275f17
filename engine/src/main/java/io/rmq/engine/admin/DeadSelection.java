package io.rmq.engine.admin;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

import io.rmq.engine.i18n.EngineArguments;

/**
 * Which dead messages an operation acts on. Immutable.
 */
public sealed interface DeadSelection {

    /** Every dead message of the topic. */
    static DeadSelection all() {
        return All.INSTANCE;
    }

    /** These messages (their contents), wherever their slot; a content given twice is selected once. */
    static DeadSelection members(List<byte[]> members) {
        Set<ByteBuffer> seen = new HashSet<>();
        return new Members(members.stream().filter(m -> seen.add(ByteBuffer.wrap(m))).toList());
    }

    /** Messages that died before {@code time}. */
    static DeadSelection diedBefore(Instant time) {
        return new DiedBefore(Objects.requireNonNull(time, "time"));
    }

    /** Messages whose content contains {@code text} (UTF-8 bytes, case-sensitive). */
    static DeadSelection contentContains(String text) {
        if (text == null || text.isEmpty()) {
            throw EngineArguments.arg.emptyContentSelection();
        }
        return new ContentContains(text);
    }

    /**
     * The selection in words, for reports and audit logs: {@code all}, {@code 2 members},
     * {@code died before <time>}, {@code content contains '<text>'}.
     */
    default String describe() {
        return describe(text -> text);
    }

    /**
     * The selection in words, with the text of a content selection as {@code shown} writes it (escaped and
     * bounded for a log line, say).
     */
    default String describe(UnaryOperator<String> shown) {
        if (this instanceof Members m) {
            return m.members().size() + (m.members().size() == 1 ? " member" : " members");
        }
        if (this instanceof DiedBefore b) {
            return "died before " + b.time();
        }
        if (this instanceof ContentContains c) {
            return "content contains '" + shown.apply(c.text()) + "'";
        }
        return "all";
    }

    /** Every dead message. */
    enum All implements DeadSelection {
        INSTANCE
    }

    /** Given members. */
    record Members(List<byte[]> members) implements DeadSelection {
    }

    /** Died before a time. */
    record DiedBefore(Instant time) implements DeadSelection {
    }

    /** Content contains a text. */
    record ContentContains(String text) implements DeadSelection {
    }
}
