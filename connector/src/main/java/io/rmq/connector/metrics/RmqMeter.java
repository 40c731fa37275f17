package io.rmq.connector.metrics;

/**
 * Every meter of the connector, declared once: its name (dotted, as MicroProfile Metrics, OpenTelemetry
 * and Micrometer name them; Prometheus shows {@code rmq_messages_sent_total}), its kind, whether it is per
 * channel or per topic, its unit and its description. {@code docs/operations.md} lists the same.
 */
public enum RmqMeter {

    SENT("rmq.messages.sent", Kind.COUNTER, Scope.CHANNEL, null,
            "Messages an outgoing channel stored as new messages"),
    MERGED("rmq.messages.merged", Kind.COUNTER, Scope.CHANNEL, null,
            "Messages an outgoing channel sent that merged into a pending duplicate"),
    DELIVERED("rmq.messages.delivered", Kind.COUNTER, Scope.CHANNEL, null,
            "Messages an incoming channel handed over to the application"),
    ACKED("rmq.messages.acked", Kind.COUNTER, Scope.CHANNEL, null,
            "Delivered messages the application acknowledged (committed)"),
    NACKED("rmq.messages.nacked", Kind.COUNTER, Scope.CHANNEL, null,
            "Delivered messages the application nacked (then settled by the channel's failure-strategy)"),
    REDELIVERED("rmq.messages.redelivered", Kind.COUNTER, Scope.TOPIC, null,
            "Messages rolled back at their prepare deadline, to be delivered again"),
    DEAD("rmq.messages.dead", Kind.COUNTER, Scope.TOPIC, null,
            "Messages moved to the dead queue by this process"),
    REQUEUED("rmq.messages.requeued", Kind.COUNTER, Scope.TOPIC, null,
            "Dead messages an operator requeued through this process"),
    CANCELLED("rmq.messages.cancelled", Kind.COUNTER, Scope.TOPIC, null,
            "Pending messages the application cancelled through this process (RmqTopics)"),
    RESCHEDULED("rmq.messages.rescheduled", Kind.COUNTER, Scope.TOPIC, null,
            "Pending messages the application rescheduled or reprioritized through this process (RmqTopics)"),
    EXPIRED("rmq.messages.expired", Kind.COUNTER, Scope.TOPIC, null,
            "Messages this process found expired before delivery and removed (dropped, or kept in the dead queue)"),
    LATENESS("rmq.delivery.lateness", Kind.TIMER, Scope.CHANNEL, Unit.SECONDS,
            "Hand-over time minus due time of messages of timed topics (RANGE_MERGE, FIXED_TIME)"),
    PROCESSING("rmq.processing.duration", Kind.TIMER, Scope.CHANNEL, Unit.SECONDS,
            "Time from hand-over to ack or nack"),
    PENDING("rmq.queue.pending", Kind.GAUGE, Scope.TOPIC, null,
            "Messages in the store queues of the topic"),
    DUE("rmq.queue.due", Kind.GAUGE, Scope.TOPIC, null,
            "Pending messages that are due (every pending message of a PRIORITY topic)"),
    OLDEST_DUE_AGE("rmq.queue.oldest.due.age", Kind.GAUGE, Scope.TOPIC, Unit.SECONDS,
            "How long the oldest due message has been due (0 when none is due, always 0 for PRIORITY)"),
    INFLIGHT("rmq.queue.inflight", Kind.GAUGE, Scope.TOPIC, null,
            "Messages in the prepare queues of the topic: being consumed"),
    DEAD_QUEUE("rmq.queue.dead", Kind.GAUGE, Scope.TOPIC, null,
            "Messages in the dead queues of the topic"),
    THROTTLED("rmq.flow.throttled", Kind.TIMER, Scope.CHANNEL, Unit.SECONDS,
            "Waits of an incoming channel for permits of its topic's rate limit, with demand and room for messages"),
    FLOW_RATE("rmq.flow.rate", Kind.GAUGE, Scope.TOPIC, null,
            "The rate the topic's deliveries are held to now, messages per second: the limit, or the adaptive"
                    + " slow-down's lower rate (0: no limit)"),
    FLOW_LIMIT("rmq.flow.limit", Kind.GAUGE, Scope.TOPIC, null,
            "The topic's configured rate limit, messages per second (0: no limit)");

    /** What a meter measures. */
    public enum Kind {
        /** A monotonic count. */
        COUNTER,
        /** A distribution of durations (count, sum, max, and what the registry adds). */
        TIMER,
        /** A value read when the registry asks for it. */
        GAUGE
    }

    /** The tags of a meter. */
    public enum Scope {
        /** Tags {@code topic} and {@code channel}. */
        CHANNEL,
        /** Tag {@code topic} only: shared by every channel of the topic in the process. */
        TOPIC
    }

    /** The unit of a meter that has one; counters and message counts have none. */
    public enum Unit {
        SECONDS
    }

    /** The tag naming the topic: {@code <key-prefix><topic>}, as in the store queue's key. */
    public static final String TOPIC_TAG = "topic";
    /** The tag naming the channel. */
    public static final String CHANNEL_TAG = "channel";

    private final String meterName;
    private final Kind kind;
    private final Scope scope;
    private final Unit unit;
    private final String description;

    RmqMeter(String meterName, Kind kind, Scope scope, Unit unit, String description) {
        this.meterName = meterName;
        this.kind = kind;
        this.scope = scope;
        this.unit = unit;
        this.description = description;
    }

    /** The dotted name, e.g. {@code rmq.messages.sent}. */
    public String meterName() {
        return meterName;
    }

    public Kind kind() {
        return kind;
    }

    public Scope scope() {
        return scope;
    }

    /** The unit, or {@code null} for a plain count. */
    public Unit unit() {
        return unit;
    }

    public String description() {
        return description;
    }
}
