package io.rmq.engine.redis;

/** Redis cannot be reached; the operation was not carried out and may be retried. */
public final class RedisUnavailableException extends RuntimeException {

    public RedisUnavailableException(String message) {
        super(message);
    }

    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
