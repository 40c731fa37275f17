package io.rmq.connector.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The metrics of one connector (see {@code docs/operations.md}, section Metrics): counters per channel
 * and per topic, distributions per channel, and per-topic queue gauges read from Redis at a bounded rate,
 * published through every metrics library the application has: MicroProfile Metrics, OpenTelemetry,
 * Micrometer ({@link MetricsLibrary}). With none, every channel gets {@link OutgoingMetrics#NONE} and
 * {@link IncomingMetrics#NONE}, and a message costs nothing.
 *
 * <p><b>Tags.</b> {@code topic} is {@code <key-prefix><topic>}; {@code channel} is the channel name, the
 * copies of a channel with {@code concurrency} ({@code prices$1}, {@code prices$2}) counting as the channel.
 *
 * <p><b>Lifecycle.</b> The libraries are looked up when the first channel is metered, in the running CDI
 * container. {@link #close()} removes the gauges and closes the gauges' Redis connections; counters stay
 * in their registries (a redeployed application counts on). Thread-safe.
 */
public final class RmqMetrics implements AutoCloseable {

    /** The most often a topic's state is read from Redis for its gauges. */
    public static final Duration DEFAULT_STATE_REFRESH = Duration.ofSeconds(5);
    /** The longest a gauge read waits for a new state before it shows the last one. */
    public static final Duration DEFAULT_STATE_WAIT = Duration.ofSeconds(2);

    /** The suffix SmallRye gives the copies of a channel with {@code concurrency}: {@code $1}, {@code $2}, ... */
    private static final Pattern CONCURRENT_COPY = Pattern.compile("\\$\\d+$");

    private final Supplier<List<MetricsBinding>> discovery;
    private final long refreshNanos;
    private final long waitNanos;
    private final Map<String, TopicMetrics> topics = new ConcurrentHashMap<>();
    private final Map<RmqEngine, EngineEvents> watched = new ConcurrentHashMap<>();
    private final TopicStateReader reader = new TopicStateReader();
    private volatile Meters meters; // null until the first channel

    RmqMetrics(Supplier<List<MetricsBinding>> discovery, Duration stateRefresh, Duration stateWait) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
        this.refreshNanos = stateRefresh.toNanos();
        this.waitNanos = stateWait.toNanos();
    }

    /** The metrics of a connector, published through the libraries found when the first channel is metered. Does no I/O. */
    public static RmqMetrics discover() {
        return new RmqMetrics(MetricsLibrary::discover, DEFAULT_STATE_REFRESH, DEFAULT_STATE_WAIT);
    }

    /** Whether any metrics library is bound; {@code false} until the first channel is metered. */
    public boolean isEnabled() {
        Meters m = meters;
        return m != null && !m.isEmpty();
    }

    /**
     * The counters of an outgoing channel; also registers its topic's meters.
     *
     * @param engine   the engine the channel writes through
     * @param redis the access the engine was opened with, for the queue gauges' own connection
     */
    public OutgoingMetrics outgoing(String channel, TopicDefinition topic, RmqEngine engine, RedisAccess redis) {
        Meters m = bound();
        if (m.isEmpty()) {
            return OutgoingMetrics.NONE;
        }
        watchTopic(m, topic, engine, redis);
        MeterTags tags = MeterTags.of(topic, logicalChannel(channel));
        return new OutgoingMetrics(m.counter(RmqMeter.SENT, tags), m.counter(RmqMeter.MERGED, tags));
    }

    /**
     * The meters of an incoming channel; also registers its topic's meters, the flow gauges among them (read from
     * the engine's live copy of the topic's flow settings).
     */
    public IncomingMetrics incoming(String channel, TopicDefinition topic, RmqEngine engine, RedisAccess redis) {
        Meters m = bound();
        if (m.isEmpty()) {
            return IncomingMetrics.NONE;
        }
        watchTopic(m, topic, engine, redis);
        TopicKeys keys = new TopicKeys(topic);
        topic(m, topic).flowGauges(m, () -> engine.flowSettings(keys));
        MeterTags tags = MeterTags.of(topic, logicalChannel(channel));
        return new IncomingMetrics(topic.type().isTimed(), m.counter(RmqMeter.DELIVERED, tags),
                m.counter(RmqMeter.ACKED, tags), m.counter(RmqMeter.NACKED, tags),
                m.timer(RmqMeter.LATENESS, tags), m.timer(RmqMeter.PROCESSING, tags), m.timer(RmqMeter.THROTTLED, tags));
    }

    /**
     * Counts messages an operator requeued from the dead queue of {@code topic} (for the admin tools that
     * run in the application, after {@code RmqAdmin} answered how many it moved). Does nothing without a
     * metrics library.
     */
    public void requeued(TopicDefinition topic, long count) {
        Meters m = bound();
        if (!m.isEmpty() && count > 0) {
            topic(m, topic).requeued.increment(count);
        }
    }

    /** Counts a pending message of {@code topic} that the application cancelled. Does nothing without a metrics library. */
    public void cancelled(TopicDefinition topic) {
        Meters m = bound();
        if (!m.isEmpty()) {
            topic(m, topic).cancelled.increment(1);
        }
    }

    /**
     * Counts a pending message of {@code topic} that the application rescheduled or reprioritized. Does nothing
     * without a metrics library.
     */
    public void rescheduled(TopicDefinition topic) {
        Meters m = bound();
        if (!m.isEmpty()) {
            topic(m, topic).rescheduled.increment(1);
        }
    }

    private Meters bound() {
        Meters m = meters;
        if (m == null) {
            synchronized (this) {
                if (meters == null) {
                    meters = new Meters(discovery.get());
                }
                m = meters;
            }
        }
        return m;
    }

    private TopicMetrics topic(Meters m, TopicDefinition topic) {
        return topics.computeIfAbsent(MeterTags.topicTag(topic), tag -> new TopicMetrics(topic, m));
    }

    private void watchTopic(Meters m, TopicDefinition topic, RmqEngine engine, RedisAccess redis) {
        topic(m, topic).gauges(redis, m, reader, refreshNanos, waitNanos);
        watched.computeIfAbsent(engine, e -> {
            EngineEvents listener = new EngineCounting(m);
            e.addListener(listener);
            return listener;
        });
    }

    static String logicalChannel(String channel) {
        return CONCURRENT_COPY.matcher(channel).replaceFirst("");
    }

    /** Removes the gauges, stops reading Redis for them and stops listening to the engines. Idempotent. */
    @Override
    public void close() {
        watched.forEach(RmqEngine::removeListener);
        watched.clear();
        topics.values().forEach(TopicMetrics::removeGauges);
        reader.close();
    }

    /** Counts what the engines report about the topics: rolled back at their deadline, moved to the dead queue, expired. */
    private final class EngineCounting implements EngineEvents {
        private final Meters m;

        EngineCounting(Meters m) {
            this.m = m;
        }

        @Override
        public void deadLettered(TopicDefinition topic, long count) {
            topic(m, topic).dead.increment(count);
        }

        @Override
        public void redelivered(TopicDefinition topic, long count) {
            topic(m, topic).redelivered.increment(count);
        }

        @Override
        public void expired(TopicDefinition topic, long count) {
            topic(m, topic).expired.increment(count);
        }
    }
}
