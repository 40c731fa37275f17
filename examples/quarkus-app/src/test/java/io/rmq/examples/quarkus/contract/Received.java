package io.rmq.examples.quarkus.contract;

import io.rmq.connector.IncomingRmqMetadata;

/**
 * One message as the application received it.
 *
 * <p>The contract suite's {@code io.rmq.tck.support.Received} (in the test sources of {@code tck-tests}, which no
 * other module can depend on), for the contract rules run on Quarkus; keep the two in step.
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
