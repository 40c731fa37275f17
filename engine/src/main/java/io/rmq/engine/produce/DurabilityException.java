package io.rmq.engine.produce;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * A durable send whose write did not reach the required replicas within the durability timeout
 * (RMQ-0370; {@link WriteState#WRITTEN_UNCONFIRMED}). The master has stored the message, and it is consumed like
 * any other unless the master fails before a replica has it: the send is unconfirmed, not undone. Sending it
 * again may store it twice; a pending duplicate merges.
 */
public final class DurabilityException extends SendFailedException {

    private static final long serialVersionUID = 1L;

    private final long reached;
    private final int required;

    DurabilityException(String topic, long reached, int required, long timeoutMillis) {
        super(EngineExceptions.ex.replicasNotReached(topic, reached, required, timeoutMillis), topic,
                WriteState.WRITTEN_UNCONFIRMED, null);
        this.reached = reached;
        this.required = required;
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
