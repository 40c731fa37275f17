package io.rmq.engine.support;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.rmq.engine.i18n.EngineLogging;

/**
 * Shuts a Lettuce client down without waiting for ever. {@code AbstractRedisClient.shutdown} waits for its
 * future with no bound, and that future has been seen never to complete after the client's event loops had
 * ended (Lettuce issue 2278, open for 6.x); an engine closed at undeploy then hung the deployment. Here the
 * wait is bounded: past it the client is left to finish on its own daemon threads, and RMQ-0008 says so.
 * Stateless.
 */
public final class ClientShutdown {

    /** Netty's quiet period: none, the connections are closed before. */
    private static final Duration QUIET = Duration.ZERO;
    /** How long Netty's event loops may take to end. */
    private static final Duration EVENT_LOOPS = Duration.ofSeconds(2);
    /** How long the whole shutdown may take: the event loops' bound and the connections' closing. */
    public static final Duration BOUND = Duration.ofSeconds(5);

    private ClientShutdown() {
    }

    /** Shuts {@code client} down, waiting at most {@link #BOUND}; {@code what} names it in RMQ-0008. */
    public static void shutdown(AbstractRedisClient client, String what) {
        try {
            client.shutdownAsync(QUIET.toMillis(), EVENT_LOOPS.toMillis(), TimeUnit.MILLISECONDS)
                    .get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            EngineLogging.log.clientShutdownUnfinished(what, BOUND.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
