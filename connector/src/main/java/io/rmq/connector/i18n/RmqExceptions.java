package io.rmq.connector.i18n;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The connector's exception texts, each with a stable id ({@code RMQ-2xxx}); every method returns
 * the exception for the caller to throw or to fail a message with. Use the shared instance
 * {@link #ex}; thread-safe.
 */
public final class RmqExceptions {

    /** The shared instance. */
    public static final RmqExceptions ex = new RmqExceptions();

    private RmqExceptions() {
    }

    /**
     * RMQ-2001: one or more channels are misconfigured. The message names every problem, one line per
     * channel: {@code Channel 'prices' (incoming): attribute 'slot-amount' = '12' is invalid: ...; attribute ...}.
     *
     * @param problemsByChannel per channel label, the descriptions of its problems; at least one
     */
    public String invalidConfiguration(Map<String, List<String>> problemsByChannel) {
        return problemsByChannel.entrySet().stream()
                .map(e -> e.getKey() + ": " + String.join("; ", e.getValue()))
                .collect(Collectors.joining("\n", "RMQ-2001 ", ""));
    }

    /**
     * RMQ-2002: a value given to a metadata builder or constructor is not allowed.
     *
     * @param property    the metadata property, e.g. {@code timeRange}
     * @param value       the value given
     * @param requirement what is allowed, e.g. {@code "a duration of at least 1 ms is required"}
     */
    public IllegalArgumentException invalidMetadataValue(String property, Object value, String requirement) {
        return new IllegalArgumentException("RMQ-2002 Metadata property '" + property + "' = '" + value
                + "' is invalid: " + requirement);
    }

    /** RMQ-2003: outgoing metadata gives both a delivery time and a delay. */
    /** RMQ-2320: outgoing metadata gives both an expiry time and a time to live. */
    public IllegalStateException conflictingExpiry(Object expiresAt, Object timeToLive) {
        return new IllegalStateException("RMQ-2320 Metadata gives both expiresAt (" + expiresAt + ") and timeToLive ("
                + timeToLive + "): set one of them");
    }

    /** RMQ-2410: outgoing metadata gives a slot basis and a different flow key. */
    public IllegalStateException conflictingFlowKey(String slotBasis, String flowKey) {
        return new IllegalStateException("RMQ-2410 Metadata gives both slotBasis (" + slotBasis + ") and flowKey ("
                + flowKey + "), which differ: a flow key is the slot basis of its message (all messages of a key are in"
                + " one slot); set one of them, or the same value in both");
    }

    public IllegalStateException conflictingDeliveryTime(Object deliverAt, Object delay) {
        return new IllegalStateException("RMQ-2003 Metadata gives both deliverAt (" + deliverAt + ") and delay ("
                + delay + "): set one of them");
    }

    /** RMQ-2004: a RANGE_MERGE message has no time range, neither in its metadata nor as the channel default. */
    public IllegalArgumentException missingTimeRange(String channel, String topic) {
        return new IllegalArgumentException("RMQ-2004 Channel '" + channel + "' cannot send to RANGE_MERGE topic '"
                + topic + "' without a time range: set OutgoingRmqMetadata.withTimeRange(...) on the message or "
                + "the channel attribute 'time-range'");
    }

    /** RMQ-2005: a PRIORITY message has no priority, neither in its metadata nor as the channel default. */
    public IllegalArgumentException missingPriority(String channel, String topic) {
        return new IllegalArgumentException("RMQ-2005 Channel '" + channel + "' cannot send to PRIORITY topic '"
                + topic + "' without a priority: set OutgoingRmqMetadata.withPriority(...) on the message or "
                + "the channel attribute 'priority'");
    }

    /** RMQ-2006: an outgoing payload is neither a String nor a byte[] and the channel has no codec. */
    public IllegalArgumentException unsupportedPayloadType(String channel, Class<?> payloadType) {
        return new IllegalArgumentException("RMQ-2006 Channel '" + channel + "' cannot send a payload of type "
                + (payloadType == null ? "null" : payloadType.getName())
                + ": without a codec only String (sent as UTF-8) and byte[] are supported; set the channel "
                + "attribute 'codec'");
    }

    /**
     * RMQ-2007: a codec threw while encoding or decoding.
     *
     * @param operation {@code "encode"} or {@code "decode"}
     */
    public IllegalArgumentException codecFailed(String channel, String codecClass, String operation, Throwable cause) {
        return new IllegalArgumentException("RMQ-2007 Codec " + codecClass + " of channel '" + channel + "' failed to "
                + operation + ": " + cause, cause);
    }

    /**
     * RMQ-2008: a codec returned {@code null}.
     *
     * @param operation {@code "encode"} or {@code "decode"}
     */
    public IllegalStateException codecReturnedNull(String channel, String codecClass, String operation) {
        return new IllegalStateException("RMQ-2008 Codec " + codecClass + " of channel '" + channel + "' returned null"
                + " from " + operation + "; a codec must return a value");
    }

    /** RMQ-2009: a message was given to a channel that is stopping or stopped. */
    public IllegalStateException channelClosed(String channel) {
        return new IllegalStateException("RMQ-2009 Channel '" + channel + "' is closed");
    }

    /**
     * RMQ-2010: outgoing metadata carries a field the topic's type does not use.
     *
     * @param field the field, e.g. {@code "a priority"} or {@code "a delivery time or delay"}
     */
    public IllegalArgumentException metadataNotForTopicType(String channel, String topic, String topicType,
            String field) {
        return new IllegalArgumentException("RMQ-2010 Channel '" + channel + "' cannot send a message with " + field
                + " to " + topicType + " topic '" + topic + "': " + topicType + " messages do not use it");
    }

    /** RMQ-2011: a second subscriber subscribed to an incoming channel, which accepts one (Reactive Streams rule 1.9). */
    public IllegalStateException channelAlreadySubscribed(String channel) {
        return new IllegalStateException("RMQ-2011 Channel '" + channel + "' accepts a single subscriber");
    }

    /** RMQ-2012: the subscriber of an incoming channel requested zero or fewer messages (Reactive Streams rule 3.9). */
    public IllegalArgumentException nonPositiveDemand(String channel, long n) {
        return new IllegalArgumentException("RMQ-2012 Channel '" + channel + "': request(" + n
                + ") violates Reactive Streams rule 3.9, demand must be positive");
    }

    /**
     * RMQ-2013: a channel was asked of a connector that is stopped: the application is stopping, or one
     * of its channels failed to start.
     *
     * @param connector the connector name
     */
    public IllegalStateException connectorStopped(String connector) {
        return new IllegalStateException("RMQ-2013 Connector " + connector + " is stopped (the application is"
                + " stopping, or one of its channels failed to start); it creates no more channels");
    }

    /**
     * RMQ-2014: a channel's topic is recorded in Redis with another type or slot amount.
     *
     * @param conflict the engine's {@code TopicConflictException}, naming both definitions
     */
    public IllegalStateException topicConflict(String channel, RuntimeException conflict) {
        return new IllegalStateException("RMQ-2014 Channel '" + channel + "': " + conflict.getMessage(), conflict);
    }

    // RMQ-21xx: bad input

    /** RMQ-2100: an outgoing payload encodes to more bytes than the channel allows. */
    public IllegalArgumentException messageTooLarge(String channel, String topic, int size, int max) {
        return new IllegalArgumentException("RMQ-2100 Channel '" + channel + "' cannot send a message of " + size
                + " bytes to topic '" + topic + "': the most is " + max + " bytes (channel attribute"
                + " 'max-message-size'); nothing was written");
    }

    /**
     * RMQ-2102: a channel cannot record or check its topic because a key of the layout (the topic
     * registry) holds the wrong kind of value.
     *
     * @param wrongType the engine's {@code WrongKeyTypeException}, naming the key
     */
    public IllegalStateException keyOfWrongType(String channel, RuntimeException wrongType) {
        return new IllegalStateException("RMQ-2102 Channel '" + channel + "' cannot use its topic: "
                + wrongType.getMessage(), wrongType);
    }

    /**
     * RMQ-2103: writing an outgoing message failed before anything was written (the Redis client was not
     * connected, no master served the slot) or Redis refused it with an error; the message is nacked, and
     * sending it again stores it once. The message of the connector's {@code RmqSendException}.
     *
     * @param redisUri the URI with any password hidden
     */
    public String sendFailed(String channel, String topic, String redisUri, Throwable cause) {
        return "RMQ-2103 Channel '" + channel + "' could not send a message to topic '" + topic + "' at Redis "
                + redisUri + " (channel attribute 'redis-uri'): " + cause.getMessage();
    }

    /**
     * RMQ-2105: an outgoing message was written to Redis but its reply was lost (the connection was reset or
     * closed, the command timed out, or a durable send had no reply within its timeout); the message is nacked,
     * and may have been stored. The message of the connector's {@code RmqSendException}.
     *
     * @param redisUri the URI with any password hidden
     */
    public String sendReplyLost(String channel, String topic, String redisUri, String reason) {
        return "RMQ-2105 Channel '" + channel + "' wrote a message to topic '" + topic + "' at Redis " + redisUri
                + " (channel attribute 'redis-uri'), but its reply was lost (" + reason + "): it may have been stored,"
                + " and sending it again may store it twice (a pending duplicate merges)";
    }

    /**
     * RMQ-2104: a String payload holds a surrogate char that is not half of a pair, which UTF-8 cannot
     * encode: sending it would alter the message.
     *
     * @param index where the unpaired surrogate is
     */
    public IllegalArgumentException payloadNotUnicode(String channel, String topic, int index) {
        return new IllegalArgumentException("RMQ-2104 Channel '" + channel + "' cannot send a String payload to topic '"
                + topic + "' that is not valid Unicode (an unpaired surrogate at index " + index + "): UTF-8 cannot"
                + " encode it without altering the message; nothing was written (send a byte[] to send any bytes)");
    }

    /**
     * RMQ-2101: the content of a popped message is not valid UTF-8, so it cannot be delivered as a
     * {@code String}.
     *
     * @param offset where the first malformed byte is
     */
    public IllegalArgumentException contentNotUtf8(String channel, String topic, int slot, int size, int offset) {
        return new IllegalArgumentException("RMQ-2101 Channel '" + channel + "' cannot deliver a message of topic '"
                + topic + "' slot " + slot + " as a String: its content (" + size + " bytes) is not valid UTF-8 (first"
                + " malformed byte at offset " + offset + "); channel attribute 'payload-type' is 'string': set it to"
                + " 'bytes', or set a 'codec', to receive such content");
    }

    /**
     * RMQ-2040: a durable send was stored by the master but not confirmed by the required replicas within
     * the timeout; the message is nacked (it may still be consumed, or lost if the master fails now). The
     * message of the connector's {@code RmqSendException}.
     */
    public String sendNotReplicated(String channel, String topic, long reached, int required, long timeoutMillis) {
        return "RMQ-2040 Channel '" + channel + "' sent a message to topic '" + topic
                + "' that reached " + reached + " of the " + required + " replica(s) required (channel attribute"
                + " 'durability' = 'replicas:" + required + "') within " + timeoutMillis + " ms ('durability-timeout'):"
                + " the master stored it, but it may be lost if the master fails now; check that enough replicas are"
                + " connected, or lower 'durability' or raise 'durability-timeout'";
    }

    /** RMQ-2015: a configuration exception was created without a problem to name. */
    public IllegalArgumentException noConfigurationProblem() {
        return new IllegalArgumentException("RMQ-2015 A configuration exception needs at least one problem");
    }

    /** RMQ-2016: the document whose attribute table is read or replaced lacks the marker lines. */
    public IllegalArgumentException attributeTableMarkersMissing(String beginMarker, String endMarker) {
        return new IllegalArgumentException("RMQ-2016 The document lacks the lines " + beginMarker + " and " + endMarker);
    }

    /** RMQ-2017: the reader of the topics' state for the metrics was closed (the connector stopped). */
    public IllegalStateException topicStateReaderClosed() {
        return new IllegalStateException("RMQ-2017 The reader of the topics' state for the metrics is closed");
    }

    /** RMQ-2018: an argument of a message method that must be given was {@code null}. */
    public IllegalArgumentException nullArgument(String argument) {
        return new IllegalArgumentException("RMQ-2018 `" + argument + "` must not be `null`");
    }

    /** RMQ-2019: the connector read an attribute that does not apply to the channel's direction. */
    public IllegalArgumentException attributeNotForDirection(String attribute, String direction) {
        return new IllegalArgumentException("RMQ-2019 Attribute '" + attribute + "' does not apply to " + direction
                + " channels");
    }

    /** RMQ-2020: a meter that is not one of the queue gauges was read as one. */
    public IllegalArgumentException notAQueueGauge(String meter) {
        return new IllegalArgumentException("RMQ-2020 " + meter + " is not a queue gauge");
    }

    /** RMQ-2300: a message of a channel was looked for by a name that is not a channel of the connector. */
    public IllegalArgumentException unknownChannel(String channel, String connector, java.util.Collection<String> known) {
        return new IllegalArgumentException("RMQ-2300 '" + channel + "' is not a channel of the connector " + connector
                + (known.isEmpty() ? ": it has no channel (yet: the runtime creates them when the application starts)"
                        : "; its channels are " + String.join(", ", known)));
    }

    /** RMQ-2361: a channel whose failure strategy is {@code fail} failed, because of a failed message. */
    public IllegalStateException channelFailedByStrategy(String channel, String topic, Throwable reason) {
        return new IllegalStateException("RMQ-2361 Incoming channel '" + channel + "' (topic '" + topic + "') failed: a"
                + " message failed and its failure-strategy is 'fail'; the message was rolled back. Cause: " + reason,
                reason);
    }

    /** RMQ-2362: pause or resume was asked of a channel that is not an incoming channel of the connector. */
    public IllegalArgumentException notAnIncomingChannel(String channel, java.util.Collection<String> incoming) {
        return new IllegalArgumentException("RMQ-2362 '" + channel + "' is not an incoming channel of the connector"
                + " smallrye-redis-rmq, so it cannot be paused or resumed; its incoming channels are "
                + (incoming.isEmpty() ? "none (yet: the runtime creates them when the application starts)"
                        : String.join(", ", incoming)));
    }
}
