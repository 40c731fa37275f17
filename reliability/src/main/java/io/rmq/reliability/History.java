package io.rmq.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Everything that happened to the messages of one test run: every send (acknowledged by the queue or
 * not) and every delivery, plus the messages found dead-lettered at the end. Read it with
 * {@code HistoryChecker.check}.
 *
 * <p>Recording is cheap (one small object appended to a lock-free queue) and thread-safe, so producer
 * and consumer threads record as they go. Processes of their own write their deliveries with a
 * {@code HistoryLog}, whose {@code load} adds such a file to a history.
 *
 * <p>Times are wall-clock microseconds ({@link Clocks#nowMicros()}), comparable between the processes
 * of one machine; they order processing intervals for the overlap check and date acknowledged sends.
 */
public final class History {

    /**
     * A send.
     *
     * @param id        the message's id (unique in the run)
     * @param key       the slot basis it was sent with (the key whose messages must not be processed at once)
     * @param slot      the slot the queue routed it to, or -1 when not known (a failed send)
     * @param acked     whether the queue acknowledged it (stored or merged)
     * @param atMicros  when the acknowledgement (or the failure) arrived
     */
    public record Send(String id, String key, int slot, boolean acked, long atMicros) {
    }

    /**
     * A delivery, recorded once the application finished processing it and before it was committed.
     *
     * @param id          the message's id
     * @param key         its key
     * @param attempt     the queue's attempt number (1 for a first delivery)
     * @param process     who processed it (a process or consumer name)
     * @param startMicros when processing started
     * @param endMicros   when processing ended
     */
    public record Delivery(String id, String key, int attempt, String process, long startMicros, long endMicros) {
    }

    private final ConcurrentLinkedQueue<Send> sends = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private final Set<String> deadLettered = ConcurrentHashMap.newKeySet();

    /** Records a send the queue acknowledged. */
    public void acked(String id, String key, int slot) {
        sends.add(new Send(id, key, slot, true, Clocks.nowMicros()));
    }

    /** Records a send the queue refused or failed to confirm (it may or may not have been stored). */
    public void nacked(String id, String key) {
        sends.add(new Send(id, key, -1, false, Clocks.nowMicros()));
    }

    /** Records a delivery whose processing ran from {@code startMicros} to now. */
    public void delivered(String id, String key, int attempt, String process, long startMicros) {
        deliveries.add(new Delivery(id, key, attempt, process, startMicros, Clocks.nowMicros()));
    }

    public void add(Send send) {
        sends.add(send);
    }

    public void add(Delivery delivery) {
        deliveries.add(delivery);
    }

    /** Records a message found in a dead queue at the end of the run. */
    public void deadLettered(String id) {
        deadLettered.add(id);
    }

    /** A snapshot of the sends, in the order they were recorded. */
    public List<Send> sends() {
        return new ArrayList<>(sends);
    }

    /** A snapshot of the deliveries, in the order they were recorded (or loaded). */
    public List<Delivery> deliveries() {
        return new ArrayList<>(deliveries);
    }

    public Set<String> deadLetteredIds() {
        return Set.copyOf(deadLettered);
    }
}
