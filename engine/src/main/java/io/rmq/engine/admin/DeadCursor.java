package io.rmq.engine.admin;

import io.rmq.engine.i18n.EngineArguments;

/**
 * Where a page of dead messages starts: a slot and an offset in its dead queue. Messages that die
 * or leave meanwhile shift later pages a little: paging is for looking, selections are for acting.
 *
 * @param slot   the slot
 * @param offset the rank in the slot's dead queue, oldest death first
 */
public record DeadCursor(int slot, long offset) {

    /** The first page. */
    public static final DeadCursor START = new DeadCursor(0, 0);
    /** The largest offset: a sorted set holds fewer members, and a script's numbers stay exact below it. */
    public static final long MAX_OFFSET = 1L << 32;

    public DeadCursor {
        if (slot < 0 || offset < 0 || offset > MAX_OFFSET) {
            throw EngineArguments.arg.badDeadCursor(slot, offset, MAX_OFFSET);
        }
    }

    /** The text form used by the REST resource and the command line: {@code <slot>:<offset>}. */
    @Override
    public String toString() {
        return slot + ":" + offset;
    }

    /** Reads the text form {@code <slot>:<offset>}. */
    public static DeadCursor parse(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        try {
            return new DeadCursor(Integer.parseInt(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw EngineArguments.arg.malformedDeadCursor(text);
        }
    }
}
