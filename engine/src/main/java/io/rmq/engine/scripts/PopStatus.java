package io.rmq.engine.scripts;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * The status a {@code pop.lua} call reports first in its reply, mirroring the script's codes.
 * Without coordination every pop is {@link #POPPED}.
 */
public enum PopStatus {
    /** The caller may pop the slot (it owns it, or coordination is off); the popped members follow. */
    POPPED(0),
    /**
     * The caller owns the slot, but members popped by an earlier owner are still in the prepare
     * queue; nothing was popped. The slot is popped once they are committed, rolled back or released.
     */
    HANDOVER(1),
    /** The slot is owned under a newer epoch: the caller lost it and popped nothing. */
    FENCED(-1),
    /** Consumption of the slot is paused (see the admin API); nothing was popped, the slot is polled again in 1 s. */
    PAUSED(2);

    private final int code;

    PopStatus(int code) {
        this.code = code;
    }

    /** The code as the script returns it. */
    public int code() {
        return code;
    }

    /**
     * The status for a script code.
     *
     * @throws IllegalArgumentException for a code the script does not return
     */
    public static PopStatus of(long code) {
        for (PopStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw EngineExceptions.ex.unknownPopStatus(code);
    }
}
