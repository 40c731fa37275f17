package io.rmq.engine.redis;

import java.security.cert.CertificateException;
import java.util.Locale;
import javax.net.ssl.SSLException;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;

/**
 * Why a connection to Redis could not be opened, told apart so that the message names what to fix:
 * the credentials, the TLS trust, or the address. Stateless.
 */
public enum ConnectionFailure {

    /** Redis refused the user name or password ({@code WRONGPASS}, {@code NOAUTH}), or the user may not connect. */
    CREDENTIALS,
    /** The TLS handshake failed: the server's certificate is not trusted, or does not name the host. */
    TLS,
    /** Anything else: Redis is down, the address is wrong, the network fails. */
    UNREACHABLE;

    /** The kind of {@code failure}, found anywhere in its chain of causes. */
    public static ConnectionFailure of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = String.valueOf(t.getMessage()).toUpperCase(Locale.ROOT);
            if (message.startsWith("WRONGPASS") || message.startsWith("NOAUTH") || message.contains("AUTH FAILED")
                    || message.startsWith("ERR INVALID PASSWORD")) {
                return CREDENTIALS;
            }
            if (t instanceof SSLException || t instanceof CertificateException) {
                return TLS;
            }
        }
        return UNREACHABLE;
    }

    /** Logs a failed connection attempt (RMQ-0140, RMQ-0141 or RMQ-0003); another follows after {@code delayMillis}. */
    void log(String displayUri, int attempt, String reason, long delayMillis) {
        reason = sentence(reason);
        switch (this) {
            case CREDENTIALS -> EngineLogging.log.redisRefusedCredentials(displayUri, attempt, reason, delayMillis);
            case TLS -> EngineLogging.log.redisTlsFailed(displayUri, attempt, reason, delayMillis);
            default -> EngineLogging.log.redisUnreachable(displayUri, attempt, reason, delayMillis);
        }
    }

    /** The exception for a connection that could not be opened (RMQ-0330, RMQ-0331 or RMQ-0313). */
    public IllegalStateException exception(String displayUri, String reason) {
        reason = sentence(reason);
        return switch (this) {
            case CREDENTIALS -> EngineExceptions.ex.redisRefusedCredentials(displayUri, reason);
            case TLS -> EngineExceptions.ex.redisTlsFailed(displayUri, reason);
            default -> EngineExceptions.ex.adminCannotReachRedis(displayUri, reason);
        };
    }

    /** The reason without its final period, since the messages go on after it ({@code WRONGPASS ... disabled.}). */
    private static String sentence(String reason) {
        String r = String.valueOf(reason).strip();
        return r.endsWith(".") ? r.substring(0, r.length() - 1) : r;
    }
}
