package io.rmq.examples.story;

import java.time.Instant;

/**
 * One message as a consumer of the example received it (serialized as JSON by the runtime: JSON-B on Open Liberty, Jackson on Quarkus).
 *
 * @param channel    the incoming channel
 * @param payload    the payload
 * @param topic      the topic it was popped from
 * @param slot       the slot it was popped from
 * @param attempt    1 on the first delivery
 * @param score      the score when popped: due time in ms since the epoch (a whole number), or priority
 * @param receivedAt when the consumer received it
 * @param note       what the consumer made of it
 */
public record Received(String channel, String payload, String topic, int slot, int attempt, Number score,
        Instant receivedAt, String note) {

    /** A score as JSON shows it best: a due time as a whole number of ms, a priority as it is. */
    static Number score(double score) {
        return score == Math.rint(score) && Math.abs(score) < 1e15 ? (Number) (long) score : (Number) score;
    }
}
