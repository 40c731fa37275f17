package io.rmq.engine.redis;

import java.util.List;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * A script call failed because keys of a topic hold another kind of value than the documented layout
 * puts there ({@code WRONGTYPE}), for example a string written by hand where a slot's store queue (a
 * sorted set) belongs. The message (RMQ-0340) names each such key; the cause is Redis's error.
 */
public final class WrongKeyTypeException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> keys;

    WrongKeyTypeException(String script, List<String> keys, List<String> problems, Throwable redisError) {
        super(EngineExceptions.ex.wrongKeyType(script, String.join(", ", problems),
                wrongTypeMessage(redisError)), redisError);
        this.keys = List.copyOf(keys);
    }

    /** Redis's {@code WRONGTYPE} error text within {@code failure}, or {@code null} when it is another failure. */
    static String wrongTypeMessage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains("WRONGTYPE")) {
                return message.substring(message.indexOf("WRONGTYPE"));
            }
        }
        return null;
    }

    /** The keys that hold the wrong kind of value. */
    public List<String> keys() {
        return keys;
    }
}
