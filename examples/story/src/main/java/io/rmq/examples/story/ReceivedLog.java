package io.rmq.examples.story;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.IncomingRmqMetadata;

/** The last {@value #CAPACITY} messages the consumers received, oldest first; also logged. Thread-safe. */
@ApplicationScoped
public class ReceivedLog {

    static final int CAPACITY = 200;
    private static final Logger LOG = Logger.getLogger(ReceivedLog.class.getName());

    private final Deque<Received> received = new ArrayDeque<>();

    /** Records a received message with what the consumer made of it. */
    public Received record(Message<String> message, String note) {
        IncomingRmqMetadata rmq = message.getMetadata(IncomingRmqMetadata.class).orElseThrow();
        Received r = new Received(rmq.getChannel(), message.getPayload(), rmq.getTopic(), rmq.getSlot(),
                rmq.getAttempt(), Received.score(rmq.getScore()), Instant.now(), note);
        synchronized (received) {
            if (received.size() == CAPACITY) {
                received.removeFirst();
            }
            received.addLast(r);
        }
        LOG.info("RMQ example: <- " + r.channel() + ": " + r.payload() + " (" + note + ")");
        return r;
    }

    /** What was received, oldest first. */
    public List<Received> all() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** Forgets everything received so far. */
    public void clear() {
        synchronized (received) {
            received.clear();
        }
    }
}
