package io.rmq.connector.config;

import static io.rmq.connector.config.Direction.INCOMING;
import static io.rmq.connector.config.Direction.INCOMING_AND_OUTGOING;
import static io.rmq.connector.config.Direction.OUTGOING;

import java.util.Arrays;
import java.util.Optional;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The configuration attributes of the {@code smallrye-redis-rmq} connector, each declared once
 * with its name, direction, type, default, bounds and one-line description. The typed channel
 * configurations ({@link IncomingChannelConfig}, {@link OutgoingChannelConfig}) read them and the
 * attribute table of {@code docs/configuration.md} is generated from them ({@link AttributeTable}).
 *
 * <p>An attribute is set per channel with {@code mp.messaging.[incoming|outgoing].<channel>.<name>}
 * or for every channel of the connector with {@code mp.messaging.connector.smallrye-redis-rmq.<name>};
 * the channel-level value wins.
 */
public enum RmqAttribute {

    REDIS_URI("redis-uri", INCOMING_AND_OUTGOING, ValueType.STRING, RedisAccess.DEFAULT_URI,
            "Lettuce URI of the Redis server: `redis://`, `rediss://` (TLS), `redis-sentinel://` or "
                    + "`rediss-sentinel://`, credentials included (`redis://user:password@host:6379/0`); a Redis "
                    + "Cluster is detected from any of its nodes, or give comma-separated seeds "
                    + "(`redis://host1:7000,host2:7001`; see `docs/redis-cluster.md`)"),
    REDIS_USERNAME("redis-username", INCOMING_AND_OUTGOING, ValueType.STRING, null, "none",
            "Redis ACL user to log in as (Redis 6+), with `redis-password`; instead of credentials in `redis-uri` "
                    + "(see `docs/security.md`)"),
    REDIS_PASSWORD("redis-password", INCOMING_AND_OUTGOING, ValueType.STRING, null, "none",
            "Redis password (of `redis-username`, else of the `default` user), e.g. from a secret or an environment "
                    + "variable through MicroProfile Config; never logged"),
    REDIS_TLS_CA_FILE("redis-tls-ca-file", INCOMING_AND_OUTGOING, ValueType.STRING, null, "the JVM's trust store",
            "PEM file of the certificate authorities trusted to sign the certificate of a `rediss://` server, whose "
                    + "host name is verified too"),
    TOPIC("topic", INCOMING_AND_OUTGOING, ValueType.STRING, null, "the channel name",
            "Topic name: letters, digits and `._:-` only"),
    TOPIC_TYPE("topic-type", INCOMING_AND_OUTGOING, ValueType.STRING, null, "mandatory",
            "Topic type: `RANGE_MERGE`, `PRIORITY` or `FIXED_TIME` (case-insensitive)"),
    SLOT_AMOUNT("slot-amount", INCOMING_AND_OUTGOING, ValueType.INT,
            String.valueOf(TopicDefinition.DEFAULT_SLOT_AMOUNT), 1, TopicDefinition.MAX_SLOT_AMOUNT,
            "Number of slots (sorted sets) of the topic: a power of two from 1 to 16384"),
    KEY_PREFIX("key-prefix", INCOMING_AND_OUTGOING, ValueType.STRING, "",
            "Prepended to every Redis key of the topic; no braces, blanks or control characters"),
    MAX_RETRIES("max-retries", INCOMING, ValueType.INT, String.valueOf(ConsumerOptions.DEFAULT_MAX_RETRIES),
            0, Integer.MAX_VALUE,
            "Retries before the dead queue, >= 0: a message is delivered at most 1 + max-retries times"),
    PREPARE_TIMEOUT("prepare-timeout", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_PREPARE_TIMEOUT.toMillis()), 100, Long.MAX_VALUE,
            "Time a popped message may stay unacknowledged before it is rolled back, >= 100"),
    BATCH_SIZE("batch-size", INCOMING, ValueType.INT, String.valueOf(ConsumerOptions.DEFAULT_BATCH_SIZE),
            1, 10_000,
            "Most members one pop may move, from 1 to 10000; also the most messages a channel holds popped but not yet delivered"),
    FAILURE_STRATEGY("failure-strategy", INCOMING, ValueType.STRING, FailureStrategy.RETRY.attributeValue(),
            "What a nacked message (or one whose content cannot become a payload) becomes: `retry` (rolled back, "
                    + "retried, dead after `max-retries`), `dead-letter` (to the dead queue at once), `ignore` "
                    + "(committed and logged: gone) or `fail` (rolled back, then the channel fails and health is DOWN);"
                    + " see [Failed messages](#failed-messages-failure-strategy)"),
    BATCH("batch", INCOMING, ValueType.STRING, "false",
            "`true`: each message carries a `List` of the payloads popped together (at most `batch-size`), acked "
                    + "or nacked as one; see [Batches](#batches-batchtrue)"),
    RETRY_BACKOFF("retry-backoff", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_RETRY_BACKOFF.toMillis()), 0, Long.MAX_VALUE,
            "Delay before the first retry of a RANGE_MERGE or FIXED_TIME message, >= 0; doubles per retry"),
    RETRY_BACKOFF_MAX("retry-backoff-max", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_RETRY_BACKOFF_MAX.toMillis()), 0, Long.MAX_VALUE,
            "Cap of the retry backoff, >= 0"),
    POLL_INTERVAL("poll-interval", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_POLL_INTERVAL.toMillis()), 10, Long.MAX_VALUE,
            "Safety poll of an idle slot, >= 10 (wake notices normally end the wait)"),
    SHUTDOWN_TIMEOUT("shutdown-timeout", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_SHUTDOWN_TIMEOUT.toMillis()), 0, Long.MAX_VALUE,
            "Time a stopping channel waits for the messages the application is processing, >= 0"),
    DEAD_MAX_COUNT("dead-max-count", INCOMING, ValueType.INT, String.valueOf(ConsumerOptions.DEFAULT_DEAD_MAX_COUNT),
            0, Integer.MAX_VALUE,
            "Retention of the dead queue: most messages kept per slot, >= 0; the oldest deaths beyond are deleted"
                    + " (checked once a minute, logged as RMQ-0114)"),
    DEAD_MAX_AGE("dead-max-age", INCOMING, ValueType.MILLIS,
            String.valueOf(ConsumerOptions.DEFAULT_DEAD_MAX_AGE.toMillis()), 1000, Long.MAX_VALUE,
            "Retention of the dead queue: ms a dead message is kept (default 180 days), >= 1000"),
    EXPIRED_TO_DEAD("expired-to-dead", INCOMING, ValueType.STRING, "false",
            "`true`: messages this channel finds expired before delivery (sent with an expiry, see"
                    + " `docs/lifecycle.md#expiry`) are kept in the dead queue with the reason `expired`; `false`: they"
                    + " are dropped. Counted either way (`rmq.messages.expired`)"),
    RATE_LIMIT("rate-limit", INCOMING, ValueType.STRING, null, "none (no limit)",
            "The topic's rate limit, `<amount>/s`, `/m` or `/h` (e.g. `500/s`): messages delivered per unit of time"
                    + " across every consumer of the topic in every application, kept in Redis. The starting value:"
                    + " a limit changed live stands until this value is changed (see `docs/flow-control.md`)"),
    RATE_LIMIT_BURST("rate-limit-burst", INCOMING, ValueType.INT, "0", 0, Integer.MAX_VALUE,
            "Messages of the rate limit that may go at once after a quiet time, >= 0; 0: a tenth of a second's"
                    + " worth of the rate, at least 1. Only with `rate-limit`"),
    ADAPTIVE_SLOW_DOWN("adaptive-slow-down", INCOMING, ValueType.STRING, "false",
            "`true`: this channel reports its deliveries' outcomes to the topic's limiter, which slows the topic's"
                    + " deliveries down while too many fail (nacked, or past their deadline) and brings the rate back as"
                    + " they succeed again (see `docs/flow-control.md#adaptive-slow-down`). Costs one Redis call per pop,"
                    + " like a rate limit"),
    ADAPTIVE_FAILURE_THRESHOLD("adaptive-failure-threshold", INCOMING, ValueType.DOUBLE, "0.5", null,
            "The share of failed deliveries in a window (1 s) above which the adaptive slow-down halves the rate,"
                    + " above 0 and below 1. Only with `adaptive-slow-down=true`"),
    ADAPTIVE_FLOOR("adaptive-floor", INCOMING, ValueType.STRING, null, "a hundredth of the rate before the slow-down, at least 1/s",
            "The lowest rate the adaptive slow-down goes down to, `<amount>/s`, `/m` or `/h` (e.g. `5/s`). Only with"
                    + " `adaptive-slow-down=true`"),
    FAIR_SHARE("fair-share", INCOMING, ValueType.STRING, "false",
            "`true`: pops serve each slot's tenants by weight (fair share between tenants, see `docs/flow-control.md`);"
                    + " messages sent with a tenant wait in their tenant's queue and are popped only by channels with"
                    + " `true`: upgrade and configure consumers before producers send with tenants"),
    TENANT_WEIGHTS("tenant-weights", INCOMING, ValueType.STRING, null, "none (every tenant weighs 1)",
            "With `fair-share=true`: the weights of named tenants, `<tenant>:<weight>,...` (e.g. `a:3,b:1`), each > 0;"
                    + " a tenant's share of a slot's pops while several are backlogged is its weight over their sum;"
                    + " other tenants and the default tenant weigh 1. The starting value"),
    KEY_CONCURRENCY("key-concurrency", INCOMING_AND_OUTGOING, ValueType.INT, null, "none (no limit)", 1,
            Integer.MAX_VALUE,
            "Limits per key: most messages of one key (its flow key or slot basis) being processed at once across every"
                    + " consumer of the topic, >= 1 (1: one at a time per key, without ZooKeeper). On an outgoing"
                    + " channel: each message records its key for the consumers' limits (see `docs/flow-control.md`)"),
    KEY_RATE_LIMIT("key-rate-limit", INCOMING_AND_OUTGOING, ValueType.STRING, null, "none (no limit)",
            "Limits per key: most messages of one key delivered per unit of time across every consumer of the topic,"
                    + " `<amount>/s`, `/m` or `/h` (e.g. `50/s`). On an outgoing channel: each message records its key"
                    + " for the consumers' limits (see `docs/flow-control.md`)"),
    KEY_RATE_LIMIT_BURST("key-rate-limit-burst", INCOMING_AND_OUTGOING, ValueType.INT, "0", 0, Integer.MAX_VALUE,
            "Messages of one key's rate limit that may go at once after a quiet time, >= 0; 0: one at a time. Only"
                    + " with `key-rate-limit`"),
    ZOOKEEPER_CONNECT("zookeeper-connect", INCOMING, ValueType.STRING, null, "none (no coordination)",
            "ZooKeeper ensemble `host:port[,host:port...][/chroot]`; when set, each slot of the topic is consumed by "
                    + "one consumer at a time across the cluster, so messages with the same slot basis are processed "
                    + "one after another (see `docs/coordination.md`)"),
    ZOOKEEPER_ROOT("zookeeper-root", INCOMING, ValueType.STRING, CoordinationOptions.DEFAULT_ROOT,
            "ZooKeeper path under which workers, leader election and slot assignments are kept; every consumer of "
                    + "a topic must use the same"),
    ZOOKEEPER_SESSION_TIMEOUT("zookeeper-session-timeout", INCOMING, ValueType.MILLIS,
            String.valueOf(CoordinationOptions.DEFAULT_SESSION_TIMEOUT.toMillis()), 100, Integer.MAX_VALUE,
            "ZooKeeper session timeout, >= 100: a consumer that stops answering loses its slots after about this "
                    + "long (the servers may narrow it to their bounds)"),
    ZOOKEEPER_CONNECTION_TIMEOUT("zookeeper-connection-timeout", INCOMING, ValueType.MILLIS,
            String.valueOf(CoordinationOptions.DEFAULT_CONNECTION_TIMEOUT.toMillis()), 100, Integer.MAX_VALUE,
            "Time a ZooKeeper connection attempt may take, >= 100; a ZooKeeper not reached by then is logged, and "
                    + "the consumer pops nothing until it is"),
    ZOOKEEPER_REBALANCE_DELAY("zookeeper-rebalance-delay", INCOMING, ValueType.MILLIS,
            String.valueOf(CoordinationOptions.DEFAULT_REBALANCE_DELAY.toMillis()), 0, Integer.MAX_VALUE,
            "Time the leader waits after consumers join or leave before it reassigns slots, >= 0, so that a burst "
                    + "of changes moves slots once"),
    ZOOKEEPER_USERNAME("zookeeper-username", INCOMING, ValueType.STRING, null, "none",
            "ZooKeeper digest user, with `zookeeper-password`: the session authenticates and the connector's znodes "
                    + "get an ACL that only this user may read and change; every consumer of a topic must use the same"),
    ZOOKEEPER_PASSWORD("zookeeper-password", INCOMING, ValueType.STRING, null, "none",
            "ZooKeeper digest password of `zookeeper-username`; never logged"),
    PAYLOAD_TYPE("payload-type", INCOMING, ValueType.STRING, PayloadType.STRING.attributeValue(),
            "Payload of received messages: `string` (UTF-8 `String`) or `bytes` (`byte[]`); ignored when "
                    + "`codec` is set"),
    TRACING_ENABLED("tracing-enabled", INCOMING_AND_OUTGOING, ValueType.STRING, "true",
            "`true`: when an OpenTelemetry with a tracer is present, sends and deliveries are traced (a `send` and a "
                    + "`process` span) and each message's send context travels with it through Redis; `false`: no "
                    + "span, nothing stored (see `docs/tracing.md`)"),
    TRACING_MAX_LINKS("tracing-max-links", INCOMING_AND_OUTGOING, ValueType.INT, "32", 0, 10_000,
            "Most send contexts a merged message keeps in Redis (outgoing) and its process span links (incoming), "
                    + "from 0 to 10000; further merged sends are only counted (`rmq.merged_sends`)"),
    CODEC("codec", INCOMING_AND_OUTGOING, ValueType.STRING, null, "none",
            "Fully qualified class name of an `io.rmq.connector.RmqCodec` with a public no-arg constructor"),
    // at most the span from the epoch to 9999-12-31T23:59:59.999Z, as OutgoingRmqMetadata.withTimeRange
    TIME_RANGE("time-range", OUTGOING, ValueType.MILLIS, null, "none", 1, 253_402_300_799_999L,
            "Time range of RANGE_MERGE messages whose metadata gives none, from 1 to 253402300799999 (until the"
                    + " year 9999)"),
    // bounded as OutgoingRmqMetadata.withTimeToLive
    TIME_TO_LIVE("time-to-live", OUTGOING, ValueType.MILLIS, null, "none", 1, 253_402_300_799_999L,
            "Time to live of messages whose metadata gives no expiry, from 1 to 253402300799999 ms: one not delivered"
                    + " that long after Redis stored it is never delivered (see `docs/lifecycle.md#expiry`)"),
    PRIORITY("priority", OUTGOING, ValueType.DOUBLE, null, "none",
            "Priority (a finite number) of PRIORITY messages whose metadata gives none"),
    PRIORITY_AGING("priority-aging", INCOMING_AND_OUTGOING, ValueType.STRING, null, "none (no aging)",
            "PRIORITY topics only: the longer a message waits, the higher it ranks, by `<points>/<time>` (`1/10s`: one"
                    + " priority point per 10 seconds of waiting; `5/m`, `2/h`, `1/500ms`), so that no message waits"
                    + " forever under a flood of higher priorities. Outgoing: the pace sends are scored with (the"
                    + " starting value; the topic's aging epoch is fixed once, by the first channel); incoming: the"
                    + " consumer forgets the send times of the messages it settles (see"
                    + " `docs/flow-control.md#priority-aging`)"),
    MAX_INFLIGHT("max-inflight", OUTGOING, ValueType.INT, String.valueOf(OutgoingChannelConfig.DEFAULT_MAX_INFLIGHT),
            1, Integer.MAX_VALUE, "Most messages one outgoing channel is writing to Redis at once, >= 1"),
    MAX_MESSAGE_SIZE("max-message-size", OUTGOING, ValueType.INT,
            String.valueOf(OutgoingChannelConfig.DEFAULT_MAX_MESSAGE_SIZE), 1, OutgoingChannelConfig.MAX_MAX_MESSAGE_SIZE,
            "Most bytes the content of one message may have (after the codec, if any), from 1 to 536870912 (Redis's"
                    + " limit); a larger message is nacked (RMQ-2100) and nothing is written"),
    TENANT_FROM_KEY("tenant-from-key", OUTGOING, ValueType.STRING, null, "none",
            "A regular expression with one group, applied to a message's slot basis: the group is its tenant (fair"
                    + " share, see `docs/flow-control.md`), e.g. `^([^:]+):` for `acme:order-1`; no slot basis or no match:"
                    + " no tenant. A tenant set in the metadata (`withTenant`) wins"),
    DURABILITY("durability", OUTGOING, ValueType.STRING, "none",
            "`none`: a message is acked once the master stored it; `replicas:<n>` (n from 1 to "
                    + ProducerOptions.MAX_DURABLE_REPLICAS + "): acked only once n replicas have it too (Redis `WAIT`), "
                    + "else nacked after `durability-timeout` (RMQ-2040); see `docs/redis-cluster.md`"),
    DURABILITY_TIMEOUT("durability-timeout", OUTGOING, ValueType.MILLIS,
            String.valueOf(ProducerOptions.DEFAULT_DURABILITY_TIMEOUT.toMillis()), 1,
            ProducerOptions.MAX_DURABILITY_TIMEOUT.toMillis(),
            "With `durability=replicas:<n>`: how long a message waits for its replicas before it is nacked, from 1 to "
                    + ProducerOptions.MAX_DURABILITY_TIMEOUT.toMillis() + "; counted per message from its send, and every"
                    + " message is acked or nacked at the latest this + 100 ms after it");

    /** The kind of value an attribute takes, as shown in the docs. */
    public enum ValueType {
        /** Free text, checked by the attribute's own rule. */
        STRING("string"),
        /** A 32-bit integer in decimal. */
        INT("int"),
        /** A duration in milliseconds, as a decimal integer. */
        MILLIS("long, ms"),
        /** A finite decimal number. */
        DOUBLE("double");

        private final String label;

        ValueType(String label) {
            this.label = label;
        }

        /** The word shown in the docs. */
        public String label() {
            return label;
        }
    }

    private final String attributeName;
    private final Direction direction;
    private final ValueType type;
    private final String defaultValue;
    private final String defaultLabel;
    private final long min;
    private final long max;
    private final String description;

    /** An attribute with a literal default value ({@code ""} for an empty default). */
    RmqAttribute(String attributeName, Direction direction, ValueType type, String defaultValue, String description) {
        this(attributeName, direction, type, defaultValue, null, Long.MIN_VALUE, Long.MAX_VALUE, description);
    }

    /** A numeric attribute with a literal default value and bounds. */
    RmqAttribute(String attributeName, Direction direction, ValueType type, String defaultValue, long min, long max,
            String description) {
        this(attributeName, direction, type, defaultValue, null, min, max, description);
    }

    /** An attribute without a literal default; {@code defaultLabel} says what applies instead. */
    RmqAttribute(String attributeName, Direction direction, ValueType type, String defaultValue, String defaultLabel,
            String description) {
        this(attributeName, direction, type, defaultValue, defaultLabel, Long.MIN_VALUE, Long.MAX_VALUE, description);
    }

    RmqAttribute(String attributeName, Direction direction, ValueType type, String defaultValue, String defaultLabel,
            long min, long max, String description) {
        this.attributeName = attributeName;
        this.direction = direction;
        this.type = type;
        this.defaultValue = defaultValue;
        this.defaultLabel = defaultLabel;
        this.min = min;
        this.max = max;
        this.description = description;
    }

    /** The kebab-case name used in MicroProfile Config, e.g. {@code slot-amount}. */
    public String attributeName() {
        return attributeName;
    }

    /** The channel directions this attribute applies to. */
    public Direction direction() {
        return direction;
    }

    /** The kind of value this attribute takes. */
    public ValueType type() {
        return type;
    }

    /** The value used when the attribute is not set, if it has a literal one ({@code ""} for an empty default). */
    public Optional<String> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** Whether a channel must set this attribute (it has no default). */
    public boolean isMandatory() {
        return this == TOPIC_TYPE;
    }

    /** The default as shown in the docs: the literal value in backticks, "empty", or what applies instead. */
    public String defaultLabel() {
        if (defaultLabel != null) {
            return defaultLabel;
        }
        return defaultValue.isEmpty() ? "empty" : "`" + defaultValue + "`";
    }

    /** The smallest value of an {@link ValueType#INT INT} or {@link ValueType#MILLIS MILLIS} attribute. */
    public long min() {
        return min;
    }

    /** The largest value of an {@link ValueType#INT INT} or {@link ValueType#MILLIS MILLIS} attribute. */
    public long max() {
        return max;
    }

    /** One line saying what the attribute does and which values it takes. */
    public String description() {
        return description;
    }

    /**
     * The value as it may appear in messages and logs: credentials in a {@code redis-uri} are masked,
     * a password is {@code ***}, other values are returned unchanged.
     */
    public String displayValue(String value) {
        if (isSecret()) {
            return "***";
        }
        return this == REDIS_URI ? RedisUris.maskCredentials(value) : value;
    }

    /** Whether the value is a secret, never shown: the passwords. */
    public boolean isSecret() {
        return this == REDIS_PASSWORD || this == ZOOKEEPER_PASSWORD;
    }

    /** The attribute with the given name. */
    public static Optional<RmqAttribute> byName(String attributeName) {
        return Arrays.stream(values()).filter(a -> a.attributeName.equals(attributeName)).findFirst();
    }

    @Override
    public String toString() {
        return attributeName;
    }
}
