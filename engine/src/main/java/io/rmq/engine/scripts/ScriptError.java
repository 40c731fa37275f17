package io.rmq.engine.scripts;

import java.util.Optional;

/**
 * The errors the engine's scripts reply with, {@code "<code> <detail>"}, mirroring the table {@code ERRORS} of
 * {@code scripts/lib/errors.lua}: a failure is recognised by its code here, never by a text written again.
 */
public enum ScriptError {
    /** {@code send.lua}: the slot was split by a growth of its topic; the detail is the split marker. Nothing was stored. */
    SPLIT("RMQ_SPLIT"),
    /** {@code send.lua}, {@code tick.lua}: an unknown topic type. */
    BAD_TYPE("RMQ_BAD_TYPE"),
    /** {@code send.lua}, {@code reschedule.lua}, {@code tick.lua}, {@code flow_set.lua}: a value that is not allowed. */
    BAD_VALUE("RMQ_BAD_VALUE"),
    /** {@code act_on_dead.lua}: an unknown selection of dead members; {@code schedule_state.lua}: an unknown action; {@code flow_set.lua}: an unknown mode or field. */
    BAD_SELECTION("RMQ_BAD_SELECTION");

    private final String code;

    ScriptError(String code) {
        this.code = code;
    }

    /** The code as the script replies it, before a space and the detail. */
    public String code() {
        return code;
    }

    /** Whether {@code failure}, or one of its causes, is this error replied by a script. */
    public boolean reportedIn(Throwable failure) {
        return of(failure).orElse(null) == this;
    }

    /** The script error that {@code failure}, or the first of its causes that is one, reports; empty when none does. */
    public static Optional<ScriptError> of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null) {
                for (ScriptError error : values()) {
                    if (message.startsWith(error.code) && message.startsWith(" ", error.code.length())) {
                        return Optional.of(error);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
