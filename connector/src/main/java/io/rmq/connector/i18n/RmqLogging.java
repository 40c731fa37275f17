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
        info(() -> "RMQ-1001: Incoming channel '" + channel + "' started: consuming " + topicType + " topic '" + topic
                + "' (" + slotAmount + " slots)");
    }

    /** RMQ-1002 (INFO): an outgoing channel is ready to send to a topic. */
    public void outgoingChannelStarted(String channel, String topic, String topicType, int slotAmount) {
        info(() -> "RMQ-1002: Outgoing channel '" + channel + "' started: sending to " + topicType + " topic '" + topic
                + "' (" + slotAmount + " slots)");
    }

    /** RMQ-1003 (INFO): a channel stopped and released its Redis connections. */
    public void channelStopped(String channel) {
        info(() -> "RMQ-1003: Channel '" + channel + "' stopped");
    }

    /** RMQ-1004 (WARNING): a channel lost its Redis connection; it keeps trying to reconnect. */
    public void redisConnectionLost(String channel, String redisUri, Throwable cause) {
        warn(cause, () -> "RMQ-1004: Channel '" + channel + "' lost its connection to Redis at " + redisUri
                + "; reconnecting");
    }

    /** RMQ-1005 (INFO): a channel's Redis connection is back. */
    public void redisConnectionRestored(String channel, String redisUri) {
        info(() -> "RMQ-1005: Channel '" + channel + "' is connected to Redis at " + redisUri + " again");
    }

    /** RMQ-1006 (WARNING): popping messages from a slot failed; the channel retries after a pause. */
    public void errorPoppingMessages(String channel, Throwable cause) {
        warn(cause, () -> "RMQ-1006: Channel '" + channel + "' failed to pop messages from Redis; retrying");
    }

    /**
     * RMQ-1007 (WARNING): committing an acknowledged message failed; the message is rolled back by
     * its prepare timeout and delivered again.
     */
    public void errorCommittingMessage(String channel, String topic, int slot, Throwable cause) {
        warn(cause, () -> "RMQ-1007: Channel '" + channel + "' failed to commit a message of topic '" + topic
                + "' slot " + slot + "; it will be delivered again after its prepare timeout");
    }

    /** RMQ-1008 (WARNING): rolling back a nacked message failed; its prepare timeout will roll it back. */
    public void errorRollingBackMessage(String channel, String topic, int slot, Throwable cause) {
        warn(cause, () -> "RMQ-1008: Channel '" + channel + "' failed to roll back a message of topic '" + topic
                + "' slot " + slot + "; its prepare timeout will roll it back");
    }

    /**
     * RMQ-1009 (WARNING): a stopping channel rolled back messages that were prefetched or still being
     * processed when its shutdown timeout ended.
     */
    public void rolledBackOnShutdown(String channel, int count) {
        warn(null, () -> "RMQ-1009: Channel '" + channel + "' rolled back " + count
                + " unacknowledged message(s) on shutdown; they will be delivered again");
    }

    /** RMQ-1010 (WARNING): an outgoing message was nacked because its metadata cannot be used. */
    public void messageNackedInvalidMetadata(String channel, String reason) {
        warn(null, () -> "RMQ-1010: Channel '" + channel + "' nacked a message with invalid metadata: " + reason);
    }

    /** RMQ-1011 (WARNING): an outgoing message was nacked because no codec handles its payload type. */
    public void unsupportedPayloadType(String channel, String payloadType) {
        warn(null, () -> "RMQ-1011: Channel '" + channel + "' nacked a message with payload type " + payloadType
                + ": without a codec only String and byte[] are supported");
    }

    /** RMQ-1012 (WARNING): writing an outgoing message to Redis failed; the message is nacked. */
    public void errorSendingMessage(String channel, String topic, Throwable cause) {
        warn(cause, () -> "RMQ-1012: Channel '" + channel + "' failed to send a message to topic '" + topic + "'");
    }

    /**
     * RMQ-1013 (WARNING): the codec could not decode a popped message; the message is rolled back
     * (retried, then moved to the dead queue).
     */
    public void errorDecodingMessage(String channel, String topic, int slot, Throwable cause) {
        warn(cause, () -> "RMQ-1013: Channel '" + channel + "' could not decode a message of topic '" + topic
                + "' slot " + slot + "; rolling it back");
    }

    /** RMQ-1014 (FINE): the configuration a channel runs with (credentials masked). */
    public void channelConfiguration(String channel, String configuration) {
        if (logger.isLoggable(Level.FINE)) {
            logger.log(Level.FINE, "RMQ-1014: Channel '" + channel + "' configuration: " + configuration);
        }
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
