package io.rmq.engine.admin;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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
            throw new IllegalArgumentException("a content selection needs a non-empty text");
        }
        return new ContentContains(text);
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
