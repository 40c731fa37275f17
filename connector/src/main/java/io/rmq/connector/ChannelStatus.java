package io.rmq.connector;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.rmq.connector.config.Direction;
import io.rmq.engine.RmqEngine;

/**
 * How one channel stands, for {@link ChannelSnapshot}s: the channel tells it how it ended (failed,
 * cancelled, stopped); the connection facts are read from the engine when a snapshot is taken.
 *
 * <p>A failure of the topic's registration (a topic recorded in Redis with another definition) is
 * recorded by itself, whichever direction the channel has and whether or not it was subscribed. The
 * first failure is kept. Thread-safe: written by the channel's threads, read by health checks.
 */
final class ChannelStatus {

    private static final BooleanSupplier NOT_COORDINATED = () -> false;
    private static final BooleanSupplier NOT_THROTTLED = () -> false;

    private final String channel;
    private final Direction direction;
    private final String topic;
    private final RmqEngine engine;
    private final boolean coordinated;
    private final BooleanSupplier coordinationConnected;
    private final BooleanSupplier throttled;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean cancelled;
    private volatile boolean stopped;

    private ChannelStatus(String channel, Direction direction, String topic, RmqEngine engine,
            CompletionStage<?> registration, boolean coordinated, BooleanSupplier coordinationConnected,
            BooleanSupplier throttled) {
        this.throttled = throttled;
        this.channel = channel;
        this.direction = direction;
        this.topic = topic;
        this.engine = engine;
        this.coordinated = coordinated;
        this.coordinationConnected = coordinationConnected;
        registration.whenComplete((keys, f) -> {
            if (f != null) {
                failed(RmqConnectorSupport.unwrap(f));
            }
        });
    }

    /** The status of an outgoing channel. */
    static ChannelStatus outgoing(String channel, String topic, RmqEngine engine, CompletionStage<?> registration) {
        return new ChannelStatus(channel, Direction.OUTGOING, topic, engine, registration, false, NOT_COORDINATED,
                NOT_THROTTLED);
    }

    /**
     * The status of an incoming channel.
     *
     * @param coordinationConnected read when a snapshot is taken, for a coordinated channel only
     * @param throttled             read when a snapshot is taken: whether the consumer waits for permits
     */
    static ChannelStatus incoming(String channel, String topic, RmqEngine engine, CompletionStage<?> registration,
            boolean coordinated, BooleanSupplier coordinationConnected, BooleanSupplier throttled) {
        return new ChannelStatus(channel, Direction.INCOMING, topic, engine, registration, coordinated,
                coordinated ? coordinationConnected : NOT_COORDINATED, throttled);
    }

    /** The channel failed for good; only the first failure is kept. */
    void failed(Throwable cause) {
        failure.compareAndSet(null, cause);
    }

    /** The subscriber of an incoming channel cancelled. */
    void cancelled() {
        cancelled = true;
    }

    /** The connector stopped the channel. */
    void stopped() {
        stopped = true;
    }

    ChannelSnapshot snapshot() {
        CompletableFuture<Void> ready = engine.ready().toCompletableFuture();
        boolean reached = ready.isDone() && !ready.isCompletedExceptionally();
        return new ChannelSnapshot(channel, direction, topic, engine.displayUri(), engine.isConnected(), reached,
                coordinated, coordinationConnected.getAsBoolean(), failure.get(), cancelled, stopped, throttled.getAsBoolean());
    }
}
