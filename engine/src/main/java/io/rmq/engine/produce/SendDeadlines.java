package io.rmq.engine.produce;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The deadlines of one durable producer's sends: each send is settled at the latest {@link #REPLY_ALLOWANCE}
 * after its deadline ({@link DurableSend#expire()}), whatever its connection does meanwhile (a {@code WAIT}
 * under way, a reconnection, a silent server). The allowance lets a reply already on its way decide: a
 * {@code WAIT} that ends at the oldest deadline returns a round trip later, and the writes queued behind it on
 * the connection just after.
 *
 * <p>Every send of a producer has the same timeout, so deadlines come in the order sends are tracked: one timer
 * armed for the oldest suffices. Sends settled earlier leave the queue when they reach its head. Thread-safe;
 * expiries run on {@code timer}, a thread that nothing else may hold up.
 */
final class SendDeadlines {

    /** How long after its deadline a send may still be settled by a reply on its way. */
    static final Duration REPLY_ALLOWANCE = Duration.ofMillis(100);
    private static final long ALLOWANCE_NANOS = REPLY_ALLOWANCE.toNanos();

    private final ScheduledExecutorService timer;
    private final Queue<DurableSend> sends = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean armed = new AtomicBoolean();

    SendDeadlines(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    void track(DurableSend send) {
        DurableSend head;
        while ((head = sends.peek()) != null && head.isDone()) {
            sends.remove(head); // settled long before its deadline: nothing left to expire
        }
        sends.add(send);
        arm();
    }

    private void arm() {
        DurableSend head = sends.peek();
        if (head != null && armed.compareAndSet(false, true)) {
            long delay = head.deadlineNanos() + ALLOWANCE_NANOS - System.nanoTime();
            try {
                timer.schedule(this::expire, Math.max(0, delay), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                // the client is closed: nothing more can be written or confirmed, settle what is left now
                DurableSend left;
                while ((left = sends.poll()) != null) {
                    left.expire();
                }
                armed.set(false);
            }
        }
    }

    private void expire() {
        long now = System.nanoTime();
        DurableSend head;
        while ((head = sends.peek()) != null && (head.isDone() || head.deadlineNanos() + ALLOWANCE_NANOS - now <= 0)) {
            sends.poll();
            head.expire();
        }
        armed.set(false);
        arm();
    }
}
