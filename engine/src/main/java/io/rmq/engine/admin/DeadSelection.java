package io.rmq.engine.admin;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import io.rmq.engine.i18n.EngineArguments;

/**
 * Which dead messages an operation acts on. Immutable.
 */
public sealed interface DeadSelection {

    /** Every dead message of the topic. */
    static DeadSelection all() {
        return All.INSTANCE;
    }

    /** These messages (their contents), wherever their slot. */
    static DeadSelection members(List<byte[]> members) {
        return new Members(List.copyOf(members));
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
        if (this instanceof Members m) {
            return m.members().size() + (m.members().size() == 1 ? " member" : " members");
        }
        if (this instanceof DiedBefore b) {
            return "died before " + b.time();
        }
        if (this instanceof ContentContains c) {
            return "content contains '" + c.text() + "'";
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
