package io.rmq.engine;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * A durable send whose write did not reach the required replicas within the durability timeout
 * (RMQ-0370). The master has stored the message, and it is consumed like any other unless the master
 * fails before a replica has it: the send is unconfirmed, not undone. Sending it again is safe for
 * merged types (a pending duplicate merges).
 */
public final class DurabilityException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final long reached;
    private final int required;

    DurabilityException(String topic, long reached, int required, long timeoutMillis) {
        super(EngineExceptions.ex.replicasNotReached(topic, reached, required, timeoutMillis));
        this.topic = topic;
        this.reached = reached;
        this.required = required;
    }

    /** The topic the message was sent to. */
    public String topic() {
        return topic;
    }

    /** Replicas that confirmed the write in time. */
    public long reached() {
        return reached;
    }

    /** Replicas required. */
    public int required() {
        return required;
    }
}
