package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;
import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;

/**
 * The endpoints' one Redis connection, an {@link RmqAdmin}: opened by the first request that needs
 * it, opened again to another Redis when the configured URI changes, closed when the application
 * stops. A connection that could not be opened is tried again by the next request; one that breaks
 * later reconnects by itself (Lettuce). Thread-safe: requests share the connection.
 */
@ApplicationScoped
public class AdminConnection {

    /** Guarded by {@code this}. */
    private RmqAdmin admin;
    /** The settings {@link #admin} was opened with; guarded by {@code this}. */
    private RedisAccess access;

    /**
     * The admin of the Redis of {@code settings}, connected on first use. Waits while another request
     * connects.
     *
     * @throws IllegalStateException when Redis cannot be reached (RMQ-0313), refuses the credentials (RMQ-0330),
     *                               fails the TLS handshake (RMQ-0331), or the URI is malformed (RMQ-0915)
     */
    synchronized RmqAdmin admin(AdminSettings settings) {
        RedisAccess wanted;
        try {
            wanted = settings.redisAccess();
        } catch (IllegalArgumentException malformed) {
            // RedisAccess's message never shows the credentials
            throw new IllegalStateException(msg.badRedisUri(AdminSettings.REDIS_URI,
                    UriCredentials.mask(settings.redisUri()), String.valueOf(malformed.getMessage())));
        }
        if (admin != null && !wanted.equals(access)) {
            close(); // the configuration now names another Redis or user; requests still on the old one fail with 503
        }
        if (admin == null) {
            admin = RmqAdmin.connect(wanted);
            access = wanted;
            log.connected(admin.displayUri());
        }
        return admin;
    }

    /** Closes the connection, if open. */
    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close();
            log.disconnected(admin.displayUri());
            admin = null;
            access = null;
        }
    }
}
