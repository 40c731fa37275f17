package io.rmq.connector.i18n;

import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The connector's log messages, each with a stable id ({@code RMQ-1xxx}), written to the
 * {@code java.util.logging} logger {@value #LOGGER_NAME} (Open Liberty and most runtimes route it to
 * their own log). Messages are built only when their level is enabled. Use the shared instance
 * {@link #log}; thread-safe.
 */
public final class RmqLogging {

    /** The name of the logger all messages go to. */
    public static final String LOGGER_NAME = "io.rmq.connector";

    /** The shared instance. */
    public static final RmqLogging log = new RmqLogging(Logger.getLogger(LOGGER_NAME));

    private final Logger logger;

    private RmqLogging(Logger logger) {
        this.logger = logger;
    }

    /** RMQ-1001 (INFO): an incoming channel started consuming a topic. */
    public void incomingChannelStarted(String channel, String topic, String topicType, int slotAmount) {
        info(() -> "RMQ-1001 Incoming channel '" + channel + "' started: consuming " + topicType + " topic '" + topic
                + "' (" + slotAmount + " slots)");
    }

    /** RMQ-1002 (INFO): an outgoing channel is ready to send to a topic. */
    public void outgoingChannelStarted(String channel, String topic, String topicType, int slotAmount) {
        info(() -> "RMQ-1002 Outgoing channel '" + channel + "' started: sending to " + topicType + " topic '" + topic
                + "' (" + slotAmount + " slots)");
    }

    /**
     * RMQ-1003 (INFO): an incoming channel stopped: it pops no more messages, and its consumer has
     * committed, rolled back or released what it held (or its shutdown bound passed).
     */
    public void channelStopped(String channel) {
        info(() -> "RMQ-1003 Channel '" + channel + "' stopped");
    }

    // RMQ-1004 to RMQ-1009 are retired: the engine logs those events itself (RMQ-0xxx).

    /**
     * RMQ-1010 (WARNING): an outgoing message was nacked, with nothing written, because its metadata
     * does not fit the topic (a field its type does not use, or a time range or priority missing).
     */
    public void messageNackedInvalidMetadata(String channel, String reason) {
        warn(null, () -> "RMQ-1010 Channel '" + channel + "' nacked a message with invalid metadata: " + reason);
    }

    /** RMQ-1011 (WARNING): an outgoing message was nacked because, without a codec, its payload type cannot be sent. */
    public void messageNackedUnsupportedPayloadType(String channel, String payloadType) {
        warn(null, () -> "RMQ-1011 Channel '" + channel + "' nacked a message with payload type " + payloadType
                + ": without a codec only String and byte[] are supported");
    }

    /** RMQ-1012 (WARNING): writing an outgoing message to Redis failed; the message is nacked. */
    public void errorSendingMessage(String channel, String topic, Throwable cause) {
        warn(cause, () -> "RMQ-1012 Channel '" + channel + "' failed to send a message to topic '" + topic + "'");
    }

    /**
     * RMQ-1013 (WARNING): the codec could not decode a popped message; the message is rolled back
     * (retried, then moved to the dead queue).
     */
    public void errorDecodingMessage(String channel, String topic, int slot, Throwable cause) {
        warn(cause, () -> "RMQ-1013 Channel '" + channel + "' could not decode a message of topic '" + topic
                + "' slot " + slot + "; rolling it back");
    }

    /** RMQ-1014 (FINE): a channel was created with this configuration (credentials masked). */
    public void channelConfigured(String channel, String configuration) {
        if (logger.isLoggable(Level.FINE)) {
            logger.log(Level.FINE, "RMQ-1014 Channel '" + channel + "' configuration: " + configuration);
        }
    }

    /** RMQ-1015 (WARNING): the codec could not encode an outgoing payload; the message is nacked, nothing is written. */
    public void errorEncodingMessage(String channel, String topic, Throwable cause) {
        warn(cause, () -> "RMQ-1015 Channel '" + channel + "' could not encode a message for topic '" + topic
                + "'; nacking it");
    }

    /**
     * RMQ-1016 (WARNING): the stream feeding an outgoing channel failed ({@code onError}); the channel
     * sends no more messages, and the writes under way finish.
     */
    public void upstreamFailed(String channel, Throwable cause) {
        warn(cause, () -> "RMQ-1016 The stream of messages to outgoing channel '" + channel
                + "' failed; the channel sends no more messages");
    }

    /**
     * RMQ-1017 (WARNING): a Reactive Streams signal threw (a subscriber or subscription breaking rule
     * 2.13 or 3.15); the channel goes on with the next signal.
     *
     * @param owner what the signal belongs to, e.g. {@code "incoming channel 'prices'"}
     */
    public void reactiveStreamsSignalThrew(String owner, Throwable cause) {
        warn(cause, () -> "RMQ-1017 A Reactive Streams signal of " + owner + " threw; going on with the next one");
    }

    // RMQ-110x: bad input

    /** RMQ-1100 (WARNING): an outgoing message was nacked, nothing written, because its content is too large. */
    public void messageNackedTooLarge(String channel, String topic, int size, int max) {
        warn(null, () -> "RMQ-1100 Channel '" + channel + "' nacked a message of " + size + " bytes for topic '"
                + topic + "': larger than max-message-size (" + max + " bytes)");
    }

    /** RMQ-1102 (WARNING): an outgoing String payload is not valid Unicode; the message is nacked, nothing written. */
    public void messageNackedNotUnicode(String channel, String topic, int index) {
        warn(null, () -> "RMQ-1102 Channel '" + channel + "' nacked a String payload for topic '" + topic
                + "' with an unpaired surrogate at index " + index + ": UTF-8 cannot encode it");
    }

    /**
     * RMQ-1101 (WARNING): a popped message cannot be delivered as a String (its content is not UTF-8);
     * it is rolled back: retried, then moved to the dead queue.
     */
    public void contentNotUtf8(String channel, String topic, int slot, String reason) {
        warn(null, () -> "RMQ-1101 Channel '" + channel + "' rolls back a message of topic '" + topic + "' slot "
                + slot + " (retried, then moved to the dead queue): " + reason);
    }

    /**
     * RMQ-1080 (WARNING): a channel property is no attribute of the connector (nor of the messaging
     * runtime): most likely a misspelt attribute, whose default then applies.
     */
    public void unknownAttribute(String channel, String direction, String property, String closest) {
        warn(null, () -> "RMQ-1080 Channel '" + channel + "' (" + direction + "): property '" + property
                + "' is not an attribute of the smallrye-redis-rmq connector and is ignored"
                + (closest == null ? "." : "; did you mean '" + closest + "'?")
                + " The attributes are listed in docs/configuration.md");
    }

    // RMQ-234x: recurring schedules declared on outgoing channels (OutgoingRmqChannel)

    /** RMQ-2340 (INFO): a channel recorded the schedules it declares in Redis. */
    public void schedulesRecorded(String channel, String topic, String schedules) {
        info(() -> "RMQ-2340 Channel '" + channel + "' recorded the schedules " + schedules + " of topic '" + topic
                + "'; this instance runs the schedules of the topic");
    }

    /** RMQ-2341 (WARNING): a declared schedule could not be recorded; the channel goes on without it. */
    public void scheduleNotRecorded(String channel, String schedule, Throwable cause) {
        warn(cause, () -> "RMQ-2341 Channel '" + channel + "' could not record schedule '" + schedule + "': "
                + cause.getMessage() + "; the schedule is not run until the application starts again");
    }

    // RMQ-104x: durable sends (OutgoingRmqChannel)

    /**
     * RMQ-1040 (WARNING): a durable send was not confirmed by the required replicas in time and is nacked;
     * logged once until a durable send of the channel is confirmed again (each nack carries RMQ-2040).
     */
    public void durableSendsNotReplicated(String channel, String topic, long reached, int required, long timeoutMillis) {
        warn(null, () -> "RMQ-1040 Channel '" + channel + "' requires " + required + " replica(s) per send to topic '"
                + topic + "' (attribute 'durability'), but only " + reached + " confirmed within " + timeoutMillis
                + " ms; its sends are nacked until enough replicas confirm them (logged once until then)");
    }

    /** RMQ-1041 (INFO): durable sends of the channel are confirmed by the required replicas again. */
    public void durableSendsReplicatedAgain(String channel, String topic, int required) {
        info(() -> "RMQ-1041 Channel '" + channel + "': sends to topic '" + topic + "' are confirmed by " + required
                + " replica(s) again");
    }

    // RMQ-105x: metrics (io.rmq.connector.metrics)

    /** RMQ-1050 (INFO): the connector's metrics are published through these libraries. */
    public void metricsBound(String libraries) {
        info(() -> "RMQ-1050 The connector's metrics are published through " + libraries);
    }

    /**
     * RMQ-2390 (INFO): channels that enable tracing are traced through this OpenTelemetry ({@code source}: the CDI
     * bean or GlobalOpenTelemetry); {@code instance} says which (its class and its tracer provider's).
     */
    public void tracingBound(String source, String instance) {
        info(() -> "RMQ-2390 Channels with tracing-enabled=true are traced through the OpenTelemetry " + source + ": "
                + instance);
    }

    /** RMQ-2391 (WARNING): the OpenTelemetry API is present but tracing could not be set up; no channel traces. */
    public void tracingBindingFailed(Throwable cause) {
        warn(cause, () -> "RMQ-2391 The connector cannot trace through OpenTelemetry; going on without tracing");
    }

    /** RMQ-1051 (WARNING): a metrics library is present but binding to it failed; the connector goes on without it. */
    public void metricsBindingFailed(String library, Throwable cause) {
        warn(cause, () -> "RMQ-1051 The connector's metrics cannot be published through " + library
                + "; going on without it");
    }

    /**
     * RMQ-1052 (WARNING): the state of a topic could not be read from Redis for its queue gauges, which
     * show no value until a read succeeds; logged once until then.
     */
    public void errorReadingTopicState(String topic, String redisUri, Throwable cause) {
        warn(cause, () -> "RMQ-1052 Could not read the state of topic '" + topic + "' from " + redisUri
                + " for the queue gauges; they show no value until a read succeeds");
    }

    /** RMQ-1053 (WARNING): the {@code metrics} setting names something that is not a metrics library; it is ignored. */
    public void unknownMetricsLibrary(String property, String value, String known) {
        warn(null, () -> "RMQ-1053 '" + property + "' names '" + value + "', which is not one of " + known
                + ", auto or none; ignoring it");
    }

    /** RMQ-2360 (WARNING): a message failed and was committed, as the channel's failure strategy {@code ignore} asks. */
    public void failureIgnored(String channel, String topic, int slot, int attempt, Throwable reason) {
        warn(null, () -> "RMQ-2360 A message of channel '" + channel + "' (topic '" + topic + "', slot " + slot
                + ", attempt " + attempt + ") failed and was committed, as failure-strategy 'ignore' asks; it will not"
                + " be delivered again. Cause: " + reason);
    }

    /** RMQ-2363 (INFO): the application paused or resumed an incoming channel. */
    public void channelPaused(String channel, boolean paused) {
        info(() -> "RMQ-2363 Incoming channel '" + channel + "' " + (paused ? "paused: it pops nothing until resumed,"
                + " and its prefetched messages go back to the store queue" : "resumed"));
    }

    private void info(Supplier<String> message) {
        logger.log(Level.INFO, message);
    }

    private void warn(Throwable cause, Supplier<String> message) {
        if (cause == null) {
            logger.log(Level.WARNING, message);
        } else {
            logger.log(Level.WARNING, cause, message);
        }
    }
}
