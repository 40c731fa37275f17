package io.rmq.engine;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import io.lettuce.core.RedisURI;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.ExpiredMessageSweeper;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.consume.flow.FlowSettings;
import io.rmq.engine.consume.flow.FlowSettingsCache;
import io.rmq.engine.coordination.ZooKeeperSessions;
import io.rmq.engine.pending.PendingMessages;
import io.rmq.engine.produce.DurableSends;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.EvictionPolicyCheck;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.schedule.ScheduleRunner;
import io.rmq.engine.schedule.Schedules;
import io.rmq.engine.redis.WakeBus;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.support.DaemonThreads;
import io.rmq.engine.topic.TopicConflictException;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * The engine's entry point: everything the producers and consumers of one Redis share. It owns
 * the connection ({@link RmqClient}), the wake notices ({@link WakeBus}), the ZooKeeper sessions of
 * coordinated consumers, the housekeeping thread (deadline extension, sweeping, reconnection) and
 * the sweepers of expired messages, and hands each producer and consumer only the parts it needs.
 *
 * <p>Lifecycle: {@code LATENT -> STARTED -> CLOSED}. The constructor validates and does no I/O;
 * {@link #start()} connects in the background and keeps retrying (with a log line per attempt) while
 * Redis is unreachable; once connected, Lettuce reconnects by itself after an outage. While Redis
 * is unreachable, commands fail at once (they are not buffered), so a send is reported as failed
 * rather than left in doubt, and consumers retry their pops; after a reconnect every consumer polls
 * its slots, since wake notices may have been missed, and the topics in use are recorded again in the
 * registry, since Redis may have come back empty.
 *
 * <p>Consumers that coordinate through ZooKeeper share one ZooKeeper session per distinct ensemble
 * and timeouts among the consumers of this engine; it is closed with the engine.
 *
 * <p>Thread-safe.
 */
public final class RmqEngine implements AutoCloseable {

    /** Lettuce command timeout: a command without a reply by then fails, and is retried or reported. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = RedisAccess.DEFAULT_COMMAND_TIMEOUT;

    private final ScheduledExecutorService housekeeping;
    private final Map<String, FlowSettingsCache> flowSettings = new ConcurrentHashMap<>();
    /** Per topic's flow hash: the producers told of its changes (weakly held: a producer needs no closing). */
    private final Map<String, Set<TopicProducer>> flowFollowers = new ConcurrentHashMap<>();
    private final RmqClient client;
    private final WakeBus wakeBus;
    /** Guarded by this engine's lock. */
    private ZooKeeperSessions zooKeeperSessions;
    private final ExpiredMessageSweeper.Sweepers sweepers;
    private final TopicRegistry topicRegistry;
    private final Schedules schedules;
    private final List<EngineEvents> listeners = new CopyOnWriteArrayList<>();
    private final EngineEvents events = new EngineEvents() {
        @Override
        public void deadLettered(TopicDefinition topic, long count) {
            tell(l -> l.deadLettered(topic, count));
        }

        @Override
        public void redelivered(TopicDefinition topic, long count) {
            FlowSettingsCache flow = flowSettings.get(new TopicKeys(topic).flow());
            if (flow != null) {
                flow.deadlinesPassed(count); // failures, for the adaptive slow-down
            }
            tell(l -> l.redelivered(topic, count));
        }

        @Override
        public void expired(TopicDefinition topic, long count) {
            tell(l -> l.expired(topic, count));
        }

        @Override
        public void deadTrimmed(TopicDefinition topic, long count) {
            tell(l -> l.deadTrimmed(topic, count));
        }

        private void tell(Consumer<EngineEvents> event) {
            for (EngineEvents l : listeners) {
                try {
                    event.accept(l);
                } catch (RuntimeException e) {
                    // a listener's failure must not stop the engine; listeners are told not to throw
                }
            }
        }
    };

    /**
     * @param redisUri a Lettuce URI: {@code redis://}, {@code rediss://} or {@code redis-sentinel://},
     *                 with credentials if needed
     */
    public RmqEngine(String redisUri) {
        this(RedisAccess.of(Objects.requireNonNull(redisUri, "redisUri")));
    }

    public RmqEngine(RedisURI uri) {
        this(new RmqClient(Objects.requireNonNull(uri, "uri"), housekeepingThread()));
    }

    /** An engine for the Redis of {@code access}: its URI, credentials and trusted certificates. */
    public RmqEngine(RedisAccess access) {
        this(new RmqClient(Objects.requireNonNull(access, "access"), housekeepingThread()));
    }

    private static ScheduledExecutorService housekeepingThread() {
        return Executors.newScheduledThreadPool(1, DaemonThreads.numbered("rmq-housekeeping-"));
    }

    private RmqEngine(RmqClient client) {
        this.housekeeping = client.scheduler();
        this.client = client;
        client.addListener(new EvictionPolicyCheck(client));
        this.topicRegistry = new TopicRegistry(client);
        this.schedules = new Schedules(client::scripts);
        this.wakeBus = new WakeBus(client);
        this.sweepers = new ExpiredMessageSweeper.Sweepers(housekeeping, client::isConnected, events);
    }

    /** Starts connecting in the background; see {@link #ready()}. */
    public RmqEngine start() {
        client.start();
        return this;
    }

    /** Completes once the first connection to Redis is established. */
    public CompletionStage<Void> ready() {
        return client.ready();
    }

    /**
     * Completes with the outcome of the first connection attempt: {@code true} when it connected,
     * {@code false} when Redis was unreachable (the engine goes on retrying in the background).
     */
    public CompletionStage<Boolean> firstConnectionAttempt() {
        return client.firstConnectionAttempt();
    }

    /** Whether the connection to Redis is currently up. */
    public boolean isConnected() {
        return client.isConnected();
    }

    /** The URI with any password hidden, for logs and errors. */
    public String displayUri() {
        return client.displayUri();
    }

    /**
     * Records the topic's definition in Redis on first use, or checks it against the recorded one.
     * Fails with {@link TopicConflictException} when the recorded type differs, when the topic is used with
     * more slots than recorded (RMQ-0410: it grows only through {@code RmqAdmin.growTopic}; more slots are
     * accepted only up to the amount of a growth under way), or with fewer slots than it ever had (RMQ-0304).
     * A topic that grew since its configuration was written (an amount it had before) is accepted with the
     * recorded amount, and a warning says to update the configuration (RMQ-0401): the returned keys carry the
     * definition to use.
     *
     * <p>The engine records its topics again after each reconnection, should Redis have come back without them
     * (restarted without persistence, or failed over to a replica without the data); a topic recorded meanwhile
     * with another definition is left as it is and logged (RMQ-0007).
     */
    public CompletionStage<TopicKeys> registerTopic(TopicDefinition topic) {
        return topicRegistry.register(Objects.requireNonNull(topic, "topic"));
    }

    /** Creates a producer for a topic; register the topic first (see {@link #registerTopic}). */
    public TopicProducer producer(TopicKeys keys) {
        return producer(keys, ProducerOptions.defaults());
    }

    /**
     * Creates a producer for a topic that confirms its sends as {@code options} say; register the topic first
     * (see {@link #registerTopic}). A durable producer opens a connection of its own on its first send, closed
     * with this engine.
     */
    public TopicProducer producer(TopicKeys keys, ProducerOptions options) {
        Objects.requireNonNull(options, "options");
        TopicProducer producer = new TopicProducer(scripts(keys), options,
                options.durable() ? new DurableSends(client, keys, options) : null, client.ready());
        followFlow(keys, producer);
        return producer;
    }

    /**
     * Tells {@code producer} of the topic's flow settings now and of each change (limits per key make it record keys,
     * an aging pace replaces its configured one), read by the topic's flow settings cache of this engine.
     */
    private void followFlow(TopicKeys keys, TopicProducer producer) {
        FlowSettingsCache cache = flowSettingsCache(keys);
        Set<TopicProducer> producers = flowFollowers.computeIfAbsent(keys.flow(), k -> {
            Set<TopicProducer> set = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
            cache.join((before, now) -> {
                List<TopicProducer> told;
                synchronized (set) {
                    told = new ArrayList<>(set);
                }
                told.forEach(p -> p.followFlow(now.gen(), now.fields()));
            });
            return set;
        });
        producers.add(producer);
        FlowSettings known = cache.current();
        producer.followFlow(known.gen(), known.fields());
    }

    /**
     * What an application can do to a topic's messages after sending them: cancel, find, reschedule or
     * reprioritize one (see {@link PendingMessages}); register the topic first (see {@link #registerTopic}).
     */
    public PendingMessages pendingMessages(TopicKeys keys) {
        return new PendingMessages(scripts(keys));
    }

    /** Creates a consumer of a topic's slots; it does nothing until {@link TopicConsumer#start}. */
    public TopicConsumer consumer(TopicKeys keys, ConsumerOptions options, String name) {
        return new TopicConsumer(name, scripts(keys), options, client, wakeBus, housekeeping, sweepers,
                this::zooKeeperSessions, events, flowSettingsCache(keys), Clock.systemUTC());
    }

    /**
     * The topic's flow settings (rate limit, adaptive slow-down) as this engine read them last: at most a second old
     * while a consumer of the topic pops here (30 s while they are idle), {@link FlowSettings#NONE} before the first read. For metrics.
     */
    public FlowSettings flowSettings(TopicKeys keys) {
        return flowSettingsCache(keys).current();
    }

    /** The live copy of the topic's flow settings, one per topic in this engine, shared by its consumers. */
    private FlowSettingsCache flowSettingsCache(TopicKeys keys) {
        return flowSettings.computeIfAbsent(keys.flow(),
                k -> new FlowSettingsCache(scripts(keys)::flowSettings, housekeeping));
    }

    /**
     * The recurring schedules recorded in this engine's Redis: declare ({@link Schedules#define}), list, pause,
     * resume and remove them (see {@code docs/schedules.md}). Declaring one does not run it: see {@link #runSchedules}.
     */
    public Schedules schedules() {
        return schedules;
    }

    /**
     * Runs here the schedules recorded under {@code keyPrefix} for {@code topics}, and those recorded later, until
     * the returned runner is closed (close it before the engine). Each tick is sent once in the whole cluster,
     * however many instances run the schedule.
     */
    public ScheduleRunner runSchedules(String keyPrefix, Set<String> topics) {
        return new ScheduleRunner(schedules, Objects.requireNonNull(keyPrefix, "keyPrefix"), topics, housekeeping,
                Clock.systemUTC()).start();
    }

    /** Tells {@code listener} about the messages of this engine's topics, until it is removed. */
    public void addListener(EngineEvents listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(EngineEvents listener) {
        listeners.remove(listener);
    }

    /**
     * The ZooKeeper sessions of the coordinated consumers, created with the first of them: an engine that never
     * coordinates never loads Curator, an optional dependency.
     */
    private synchronized ZooKeeperSessions zooKeeperSessions() {
        if (zooKeeperSessions == null) {
            zooKeeperSessions = new ZooKeeperSessions(housekeeping);
        }
        return zooKeeperSessions;
    }

    private TopicScripts scripts(TopicKeys keys) {
        return new TopicScripts(client::scripts, keys);
    }

    /** Closes the ZooKeeper sessions and the connection; stop the consumers first. */
    @Override
    public void close() {
        // no read of a flow hash after the connection closed (it would open another)
        flowSettings.values().forEach(FlowSettingsCache::close);
        client.close();
        synchronized (this) {
            if (zooKeeperSessions != null) {
                zooKeeperSessions.close();
            }
        }
        housekeeping.shutdownNow();
    }
}
