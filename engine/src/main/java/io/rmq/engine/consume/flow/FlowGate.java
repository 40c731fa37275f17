package io.rmq.engine.consume.flow;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts.FlowGrant;

/**
 * Holds one consumer's pops to its topic's rate limit. It keeps at most one reservation of permits from the
 * topic's limiter ({@code flow_acquire.lua}): a pop asks for no more members than the reservation holds, and
 * only once its permits are valid; the next reservation is asked for right after the pop that emptied the
 * previous one, so it travels in the same flush. Permits a pop did not use (it found fewer members) are given
 * back with the next reservation. A throttled consumer arms its timer for {@link #wakeAt()}: it does not ask
 * again before its permits are valid, or at most once a second while it waits longer (giving its reservation back),
 * so that a limit changed live applies within a second.
 *
 * <p>Confined to the consumer's loop thread: every reply of the limiter is handled on {@code loop}, and then
 * {@code onReady} runs there.
 */
public final class FlowGate {

    private static final EngineLogging LOG = EngineLogging.log;
    /** A reservation covers about this much of the rate: few calls at high rates, small debts at low ones. */
    private static final double CHUNK_SECONDS = 0.02;
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * The longest a consumer waits on a reservation before it asks again, giving it back: a limit changed live
     * meanwhile (a new generation) then applies within this time, also to consumers waiting for a slow rate.
     */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The topic's limiter in Redis. */
    public interface Limiter {

        /** Writes the limit this consumer was configured with, as the starting value (see {@code flow_set.lua}). */
        CompletionStage<?> configure();

        /** Asks for permits (see {@code TopicScripts.flowAcquire}). */
        CompletionStage<FlowGrant> acquire(int permits, int refund, long refundGen);
    }

    /** Permits taken for one pop, of configuration generation {@code gen}. */
    public record Permits(long gen, int count) {
    }

    private final Limiter limiter;
    private final int batchSize;
    private final Executor loop;
    private final Runnable onReady;
    private final String topic;
    private final String consumer;
    /** Told the generation of every reply: the settings cache reads the flow hash again when it changed. */
    private final LongConsumer genSeen;

    /** Whether the configured limit was written: the first reservation waits for it. */
    private boolean configured;
    private long gen;
    private int remaining;
    private long readyAt;
    private long reservedAt;
    private boolean acquiring;
    private long retryAt;
    private double rate = -1;
    private int refund;
    private long refundGen;

    public FlowGate(Limiter limiter, int batchSize, Executor loop, Runnable onReady, String topic, String consumer,
            LongConsumer genSeen) {
        this.genSeen = genSeen;
        this.limiter = limiter;
        this.batchSize = batchSize;
        this.loop = loop;
        this.onReady = onReady;
        this.topic = topic;
        this.consumer = consumer;
    }

    /** Up to {@code room} permits of the reservation held, if they are valid at {@code nowNanos}; else {@code null}. */
    public Permits take(int room, long nowNanos) {
        if (remaining == 0) {
            return null;
        }
        if (readyAt - nowNanos > 0) {
            if (nowNanos - reservedAt >= RECHECK_NANOS) {
                used(new Permits(gen, remaining), 0); // given back with the next reservation, asked for at once
                remaining = 0;
            }
            return null;
        }
        int count = Math.min(room, remaining);
        remaining -= count;
        return new Permits(gen, count);
    }

    /** A pop used {@code used} of its {@code permits}: the rest is given back with the next reservation. */
    public void used(Permits permits, int used) {
        int unused = permits.count() - used;
        if (unused <= 0) {
            return;
        }
        if (refund > 0 && refundGen != permits.gen()) {
            refund = 0; // permits of an older configuration are worth nothing to the limiter
        }
        refundGen = permits.gen();
        refund += unused;
    }

    /** Asks for the next reservation, unless one is held, asked for, or a failed call's retry is not due yet. */
    public void reserve(long nowNanos) {
        if (remaining > 0 || acquiring || retryAt - nowNanos > 0) {
            return;
        }
        acquiring = true;
        int giveBack = refund;
        refund = 0;
        CompletionStage<FlowGrant> call;
        try {
            int permits = chunk();
            long giveBackGen = refundGen;
            call = configured ? limiter.acquire(permits, giveBack, giveBackGen)
                    : limiter.configure().thenCompose(written -> limiter.acquire(permits, giveBack, giveBackGen));
        } catch (RuntimeException e) { // thrown rather than returned: still a failed call
            call = CompletableFuture.failedFuture(e);
        }
        call.whenCompleteAsync((grant, failure) -> {
            acquiring = false;
            long now = System.nanoTime();
            if (failure != null) {
                retryAt = now + RETRY_NANOS;
                LOG.flowAcquireFailed(topic, consumer, RmqClient.rootMessage(failure));
            } else {
                configured = true;
                gen = grant.gen();
                rate = grant.rate();
                remaining = grant.granted();
                reservedAt = now;
                readyAt = now + TimeUnit.MILLISECONDS.toNanos(grant.waitMillis());
                genSeen.accept(grant.gen());
            }
            onReady.run();
        }, loop);
    }

    /** Whether the gate got a reservation: it wrote the consumer's configured limit first, if it has one. */
    public boolean isConfigured() {
        return configured;
    }

    /** The configuration generation of the last reservation (0 before the first). */
    public long gen() {
        return gen;
    }

    /**
     * When a throttled consumer may pop again ({@link System#nanoTime()}): when its permits become valid (or a second
     * after they were reserved, to ask again), or a failed call is retried; {@link Long#MAX_VALUE} while a reply is awaited (it runs {@code onReady}).
     */
    public long wakeAt() {
        if (remaining > 0) {
            return Math.min(readyAt, reservedAt + RECHECK_NANOS);
        }
        return acquiring ? Long.MAX_VALUE : retryAt;
    }

    /** The permits asked for per reservation: about 20 ms of the rate, at least 1, at most a batch. */
    private int chunk() {
        if (rate <= 0) {
            return batchSize;
        }
        return (int) Math.max(1, Math.min(batchSize, Math.ceil(rate * CHUNK_SECONDS)));
    }
}
