package io.rmq.tck.support;

import io.rmq.connector.IncomingRmqMetadata;

/**
 * One message as the application received it.
 *
 * @param payload    the payload
 * @param metadata   the connector's metadata of the message
 * @param atMillis   when the application received it ({@code System.currentTimeMillis()})
 */
public record Received(String payload, IncomingRmqMetadata metadata, long atMillis) {

    /** The delivery attempt, 1 on the first delivery. */
    public int attempt() {
        return metadata.getAttempt();
    }

    /** The score the member had when it was popped: due time in ms, or priority. */
    public double score() {
        return metadata.getScore();
    }
}
