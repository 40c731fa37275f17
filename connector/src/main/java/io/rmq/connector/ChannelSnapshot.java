package io.rmq.connector;

import java.util.Objects;
import java.util.Optional;

import io.rmq.connector.config.Direction;

/**
 * What one channel of the connector is doing at one moment, for health checks and operators: its
 * name, direction and topic, whether its Redis client is connected (and has ever been), whether its
 * ZooKeeper coordination is connected, and how it ended if it did. {@link #state()} sums these up,
 * and {@link #isReady()}, {@link #isAlive()} and {@link #hasStarted()} say what they mean for the
 * readiness, liveness and startup checks. Get them from {@link RedisRmqConnector#channelSnapshots()}.
 *
 * <p>Made of plain Java types only (no Reactive Messaging or SmallRye type), so that any health
 * integration can read it. Immutable; the channel may have moved on by the time it is read.
 */
public final class ChannelSnapshot {

    /** A channel's state, in the order of precedence: the first that applies is the one reported. */
    public enum State {
        /** The connector stopped (the application is stopping): the channel neither pops nor writes. */
        STOPPED,
        /**
         * The channel failed for good and does nothing until the application restarts: its topic is
         * recorded in Redis with another definition, its stream was ended with an error (the
         * subscriber of an incoming channel was sent {@code onError}; the upstream of an outgoing
         * channel signalled {@code onError}). See {@link #failure()}.
         */
        FAILED,
        /**
         * An incoming channel whose subscriber cancelled its subscription: it pops nothing more. Not a
         * failure: an application may cancel on purpose.
         */
        CANCELLED,
        /** Redis has not been reached yet since the channel was created: its client keeps trying. */
        CONNECTING,
        /** Redis was reached before but is not now: sends are nacked, consumers wait for the reconnection. */
        REDIS_UNREACHABLE,
        /**
         * A coordinated incoming channel ({@code zookeeper-connect}) whose consumer does not take part
         * in the coordination now: it has not joined yet, its ZooKeeper connection is suspended or its
         * session lost, or ZooKeeper was never reached. It pops nothing meanwhile.
         */
        ZOOKEEPER_UNREACHABLE,
        /** Connected (to Redis, and to ZooKeeper when the channel coordinates): working. */
        UP
    }

    private final String channel;
    private final Direction direction;
    private final String topic;
    private final String redisUri;
    private final boolean redisConnected;
    private final boolean redisReached;
    private final boolean coordinated;
    private final boolean coordinationConnected;
    private final Throwable failure;
    private final boolean cancelled;
    private final boolean stopped;
    private final boolean throttled;

    ChannelSnapshot(String channel, Direction direction, String topic, String redisUri, boolean redisConnected,
            boolean redisReached, boolean coordinated, boolean coordinationConnected, Throwable failure,
            boolean cancelled, boolean stopped, boolean throttled) {
        this.throttled = throttled;
        this.channel = Objects.requireNonNull(channel, "channel");
        this.direction = Objects.requireNonNull(direction, "direction");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.redisUri = Objects.requireNonNull(redisUri, "redisUri");
        this.redisConnected = redisConnected;
        this.redisReached = redisReached;
        this.coordinated = coordinated;
        this.coordinationConnected = coordinationConnected;
        this.failure = failure;
        this.cancelled = cancelled;
        this.stopped = stopped;
    }

    /** The channel's name, as in {@code mp.messaging.<direction>.<channel>} (with {@code $n} for a {@code concurrency} copy). */
    public String channel() {
        return channel;
    }

    /** {@link Direction#INCOMING} or {@link Direction#OUTGOING}. */
    public Direction direction() {
        return direction;
    }

    /** The topic's name (without the key prefix). */
    public String topic() {
        return topic;
    }

    /** The channel's {@code redis-uri} with any password hidden. */
    public String redisUri() {
        return redisUri;
    }

    /** Whether the connection to Redis is up now. */
    public boolean isRedisConnected() {
        return redisConnected;
    }

    /** Whether Redis has been reached at least once since the channel's client started. */
    public boolean wasRedisReached() {
        return redisReached;
    }

    /** Whether the channel coordinates through ZooKeeper ({@code zookeeper-connect}, incoming channels only). */
    public boolean isCoordinated() {
        return coordinated;
    }

    /**
     * Whether the channel's consumer takes part in the coordination now (joined, ZooKeeper connection
     * up); {@code false} for a channel that does not coordinate.
     */
    public boolean isCoordinationConnected() {
        return coordinationConnected;
    }

    /** Why the channel failed for good, when it did ({@link State#FAILED}). */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** The state these facts sum up to; see {@link State} for the precedence. */
    public State state() {
        if (stopped) {
            return State.STOPPED;
        }
        if (failure != null) {
            return State.FAILED;
        }
        if (cancelled) {
            return State.CANCELLED;
        }
        if (!redisReached) {
            return State.CONNECTING;
        }
        if (!redisConnected) {
            return State.REDIS_UNREACHABLE;
        }
        if (coordinated && !coordinationConnected) {
            return State.ZOOKEEPER_UNREACHABLE;
        }
        return State.UP;
    }

    /**
     * For the readiness check: {@code false} while the channel cannot do its work, that is, Redis is
     * unreachable (or not reached yet), a coordinated consumer is not connected to ZooKeeper, the
     * channel failed, or the connector stopped. A cancelled channel counts as ready: it has nothing
     * left to do.
     */
    public boolean isReady() {
        State state = state();
        return state == State.UP || state == State.CANCELLED;
    }

    /** For the liveness check: {@code false} once the channel has failed for good ({@link State#FAILED}). */
    public boolean isAlive() {
        return state() != State.FAILED;
    }

    /** For the startup check: whether the channel's Redis client has connected once. */
    public boolean hasStarted() {
        return redisReached;
    }

    /**
     * One line for people: {@code incoming, topic <topic>, <STATE>}, followed by the failure's
     * message for a failed channel.
     */
    public String describe() {
        State state = state();
        StringBuilder line = new StringBuilder().append(direction.label()).append(", topic ").append(topic)
                .append(", ").append(state);
        if (state == State.FAILED) {
            line.append(": ").append(failure.getMessage() != null ? failure.getMessage() : failure.getClass().getName());
        }
        if (state == State.UP && throttled) {
            line.append(", throttled (waiting for permits of the topic's rate limit)");
        }
        return line.toString();
    }

    /**
     * Whether the channel's consumer waits for permits of its topic's rate limit now (incoming channels only). Not a
     * failure: a throttled channel is {@link State#UP} and passes every check; {@link #describe()} says it.
     */
    public boolean isThrottled() {
        return throttled;
    }

    @Override
    public String toString() {
        return "ChannelSnapshot[" + channel + ": " + describe() + "]";
    }
}
