package io.rmq.engine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.TopicConflictException;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * The topics an engine uses, and their record in the registry hash {@code <prefix>rmq:topics}
 * ({@code register_topic.lua}): each is recorded on first use and checked against the recorded definition
 * ({@link #register}), and recorded again after every reconnection ({@link #connected}).
 *
 * <p><b>Why again.</b> A Redis that comes back empty (restarted without persistence, or a replica promoted
 * without the data) has lost the record while the applications that use the topic keep sending and
 * consuming; without it the admin API, the CLI and the dashboard no longer see the topic, and another
 * application could record it with another type. Such a Redis is always reached through a new connection,
 * so this engine records its topics again on each one: one {@code register_topic.lua} call per topic and
 * reconnection (or cluster topology change), as soon as the engine can use Redis again, and nothing in the
 * steady state. {@code HSETNX} never overwrites: a topic recorded meanwhile with another definition is left
 * as it is and logged (RMQ-0007, naming both); the producers and consumers here go on as they are. A call
 * that fails while connected is retried every {@value #RETRY_MILLIS} ms (RMQ-0006); one that fails because
 * the connection dropped again is made at the next reconnection.
 *
 * <p>What is recorded again is the definition the engine uses: the one it registered, or the recorded one it
 * was given at registration when the topic had grown beyond its configuration.
 *
 * <p>Threading: {@link #connected} is called on Lettuce's threads and only hands the work to the engine's
 * housekeeping thread; the calls complete on Lettuce's threads. Thread-safe.
 */
final class TopicRegistry implements RmqClient.Listener {

    /** How long a failed record waits before it is tried again, while the connection is up. */
    static final long RETRY_MILLIS = 1_000;

    private static final EngineLogging LOG = EngineLogging.log;

    /** A topic in use: as configured, and as used (the recorded definition when the topic had grown). */
    private record Registered(TopicDefinition configured, TopicDefinition effective, TopicScripts scripts) {
    }

    private final RmqClient client;
    /** By key prefix, name and configured definition: what {@link #register} answered. */
    private final Map<String, Registered> topics = new ConcurrentHashMap<>();
    /** Counts the reconnections: a registration that overlapped one records its topic again, as do retries of its round. */
    private final AtomicLong reconnections = new AtomicLong();

    TopicRegistry(RmqClient client) {
        this.client = client;
        client.addListener(this);
    }

    /** See {@link RmqEngine#registerTopic}. */
    CompletionStage<TopicKeys> register(TopicDefinition topic) {
        String key = topic.keyPrefix() + "\u0000" + topic.name() + "\u0000" + topic.registryValue();
        Registered known = topics.get(key);
        if (known != null) {
            return CompletableFuture.completedFuture(new TopicKeys(known.effective()));
        }
        TopicScripts scripts = scripts(topic);
        long round = reconnections.get();
        return client.ready().thenCompose(ignored -> scripts.registerTopic())
                .thenCompose(recorded -> effectiveDefinition(topic, recorded, scripts))
                .thenApply(effective -> {
                    Registered registered = new Registered(topic, effective,
                            effective.equals(topic) ? scripts : scripts(effective));
                    topics.putIfAbsent(key, registered);
                    long now = reconnections.get();
                    if (now != round) {
                        recordAgain(registered, now, 1); // recorded on a Redis that may have been lost since
                    }
                    return new TopicKeys(effective);
                });
    }

    /** The definition to use for {@code topic}, given the one {@code recorded} in the registry (see {@link RmqEngine#registerTopic}). */
    private static CompletionStage<TopicDefinition> effectiveDefinition(TopicDefinition topic, String recorded,
            TopicScripts scripts) {
        if (recorded.equals(topic.registryValue())) {
            return CompletableFuture.completedFuture(topic);
        }
        TopicDefinition found = TopicDefinition.fromRegistry(topic.name(), recorded, topic.keyPrefix()).orElse(null);
        if (found == null || found.type() != topic.type()) {
            return CompletableFuture.failedFuture(new TopicConflictException(topic, recorded));
        }
        return scripts.growthState().thenApply(state -> {
            if (found.slotAmount() > topic.slotAmount()) {
                // an amount the topic had before it grew; a topic recorded with more slots from the start conflicts
                if (state.grownFrom() == 0 || topic.slotAmount() < state.grownFrom()) {
                    throw new TopicConflictException(topic, recorded);
                }
                LOG.configuredAmountBelowRecorded(topic.name(), topic.slotAmount(), found.slotAmount());
                return found;
            }
            if (state.target() < topic.slotAmount()) {
                throw new TopicConflictException(topic, recorded, found.slotAmount());
            }
            return found; // growing to this amount: producers route by the recorded one until the growth ends
        });
    }

    /** Records every topic in use again, off Lettuce's thread: the Redis reached now may have lost the registry. */
    @Override
    public void connected(boolean first) {
        if (first) {
            return; // registrations wait for the first connection
        }
        long round = reconnections.incrementAndGet();
        List<Registered> inUse = List.copyOf(topics.values());
        if (!inUse.isEmpty()) {
            schedule(() -> inUse.forEach(r -> recordAgain(r, round, 1)), 0);
        }
    }

    @Override
    public void message(String channel, String message) {
    }

    /**
     * {@code register_topic.lua} with the definition in use, and the same check as at registration: silent when
     * the record agrees (or was missing and is now made), RMQ-0007 when another definition was recorded
     * meanwhile, and a retry while connected when the call fails, unless a later reconnection took over.
     */
    private void recordAgain(Registered topic, long round, int attempt) {
        TopicDefinition used = topic.effective();
        topic.scripts().registerTopic()
                .thenCompose(recorded -> recorded.equals(used.registryValue())
                        ? CompletableFuture.completedFuture(used)
                        : effectiveDefinition(topic.configured(), recorded, scripts(topic.configured())))
                .whenComplete((ignored, failure) -> {
                    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure;
                    if (cause == null) {
                        return;
                    }
                    if (cause instanceof TopicConflictException conflict) {
                        LOG.topicRecordedDifferently(used.name(), TopicKeys.registryKey(used.keyPrefix()),
                                TopicConflictException.describe(conflict.recorded()),
                                TopicConflictException.describe(used.registryValue()));
                        return;
                    }
                    if (reconnections.get() != round || !client.isConnected()) {
                        return; // the next reconnection records it
                    }
                    LOG.topicNotRecordedAgain(attempt, used.name(), RmqClient.rootMessage(cause), RETRY_MILLIS);
                    schedule(() -> recordAgain(topic, round, attempt + 1), RETRY_MILLIS);
                });
    }

    private void schedule(Runnable work, long delayMillis) {
        try {
            client.scheduler().schedule(work, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the engine is closed: nothing to record
        }
    }

    private TopicScripts scripts(TopicDefinition topic) {
        return new TopicScripts(client::scripts, new TopicKeys(topic));
    }
}
