package io.rmq.connector;

/**
 * Turns payloads into message content (the bytes stored as a sorted-set member in Redis) and back.
 * Set one on a channel with the attribute {@code codec}, the fully qualified name of an implementing
 * class with a public no-arg constructor; the connector creates one instance per channel.
 *
 * <p>Without a codec, an outgoing channel sends {@code String} payloads as UTF-8 and {@code byte[]}
 * payloads as they are, and an incoming channel delivers {@code String} or {@code byte[]} payloads
 * according to its {@code payload-type}.
 *
 * <p><b>Deterministic.</b> {@link #encode(Object)} must return identical bytes for payloads that are
 * equal: the queue merges duplicates by comparing content bytes, so an encoding that varies (map
 * entry order, timestamps, random ids, floating-point formatting that depends on the locale) silently
 * defeats merging and stores the same message twice.
 *
 * <p><b>Thread-safe.</b> One instance serves a whole channel; {@link #encode(Object)} and
 * {@link #decode(byte[])} may be called concurrently from several threads.
 *
 * <p>An exception thrown by {@code encode} nacks the outgoing message; one thrown by {@code decode}
 * rolls the incoming message back, so it is retried and, in the end, moved to the dead queue.
 */
public interface RmqCodec {

    /**
     * Encodes an outgoing payload.
     *
     * @param payload the message payload, never {@code null}
     * @return the content to store, never {@code null}; equal payloads must give equal bytes
     */
    byte[] encode(Object payload);

    /**
     * Decodes the content of a popped message.
     *
     * @param content the stored content, never {@code null}; the codec may keep it
     * @return the payload to deliver, never {@code null}
     */
    Object decode(byte[] content);
}
