package io.rmq.connector;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;

/**
 * Turns an outgoing message's payload into the content written to Redis: through the channel's codec
 * when it has one, else a {@code String} as UTF-8 (refused when it holds an unpaired surrogate, which
 * {@link String#getBytes} would silently replace) or a {@code byte[]} as it is. A payload that cannot
 * be encoded is thrown, and logged (RMQ-1015, RMQ-1102, RMQ-1011) by the encoder of an outgoing channel, which
 * nacks the message; the encoder of an {@link RmqTopic} leaves the failure to its caller. Immutable; thread-safe when
 * the codec is.
 */
final class PayloadEncoder {

    private static final RmqLogging LOG = RmqLogging.log;

    private final Optional<RmqCodec> codec;
    private final String channel;
    private final String topic;
    /** Whether a payload that cannot be encoded is logged as a nacked message. */
    private final boolean logsNacks;

    /** The encoder of an outgoing channel, which logs what it cannot encode as a nacked message. */
    PayloadEncoder(Optional<RmqCodec> codec, String channel, String topic) {
        this(codec, channel, topic, true);
    }

    PayloadEncoder(Optional<RmqCodec> codec, String channel, String topic, boolean logsNacks) {
        this.codec = codec;
        this.channel = channel;
        this.topic = topic;
        this.logsNacks = logsNacks;
    }

    /** The content of {@code payload}; what cannot be encoded is thrown (and logged, see {@link #logsNacks}). */
    byte[] encode(Object payload) {
        if (codec.isPresent()) {
            try {
                return RmqConnectorSupport.callCodec(codec.get(), channel, "encode", c -> c.encode(payload));
            } catch (RuntimeException e) {
                if (logsNacks) {
                    LOG.errorEncodingMessage(channel, topic, e);
                }
                throw e;
            }
        }
        if (payload instanceof String s) {
            int at = unpairedSurrogate(s);
            if (at >= 0) {
                if (logsNacks) {
                    LOG.messageNackedNotUnicode(channel, topic, at);
                }
                throw RmqExceptions.ex.payloadNotUnicode(channel, topic, at);
            }
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (payload instanceof byte[] b) {
            return b;
        }
        Class<?> type = payload == null ? null : payload.getClass();
        if (logsNacks) {
            LOG.messageNackedUnsupportedPayloadType(channel, type == null ? "null" : type.getName());
        }
        throw RmqExceptions.ex.unsupportedPayloadType(channel, type);
    }

    /** The index of the first surrogate char of {@code s} that is not half of a pair, or -1. */
    private static int unpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1));
                if (!paired) {
                    return i;
                }
                i++;
            }
        }
        return -1;
    }
}
