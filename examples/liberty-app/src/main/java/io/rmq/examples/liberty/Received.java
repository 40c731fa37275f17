package io.rmq.examples.liberty;

/**
 * One message as a consumer of the example received it (serialized as JSON by JSON-B).
 *
 * @param channel    the incoming channel
 * @param payload    the payload
 * @param topic      the topic it was popped from
 * @param slot       the slot it was popped from
 * @param attempt    1 on the first delivery
 * @param score      the score when popped: due time in ms since the epoch, or priority
 * @param receivedAt when the consumer received it, in ms since the epoch
 * @param note       what the consumer made of it
 */
public record Received(String channel, String payload, String topic, int slot, int attempt, double score,
        long receivedAt, String note) {
}
