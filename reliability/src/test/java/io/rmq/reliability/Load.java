package io.rmq.reliability;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.rmq.engine.produce.TopicProducer;

/**
 * A stream of messages at a steady rate, due at once, each recorded in the history as acknowledged
 * or nacked when its send completes. At most {@value #IN_FLIGHT} sends wait for their reply at a time;
 * a failed send is recorded and not retried. Runs on a thread of its own.
 *
 * <p>A load held up for longer than {@value #MAX_LAG_MILLIS} ms (every send waiting for a reply, as on a
 * half-open connection, or the thread starved of CPU) catches up only that much: the rest of its schedule
 * moves later. Catching up the whole delay would send the messages of those seconds in one burst, and when
 * the burst meets a connection being replaced, every send is refused at once (commands are rejected while
 * disconnected): the rest of the stream would be spent, nacked, in the few milliseconds of the reconnection,
 * and nothing would be sent after it.
 */
final class Load {

    private static final int IN_FLIGHT = 256;
    /** How far behind its schedule the load may fall and still catch up. */
    static final long MAX_LAG_MILLIS = 100;

    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong nacked = new AtomicLong();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private volatile long lastSendMillis;

    private Load() {
    }

    static Load start(TopicProducer producer, History history, int count, int keyCount, int perSecond) {
        Load load = new Load();
        Thread t = new Thread(() -> load.run(producer, history, count, keyCount, perSecond), "load");
        t.setDaemon(true);
        t.start();
        return load;
    }

    private void run(TopicProducer producer, History history, int count, int keyCount, int perSecond) {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        long start = System.nanoTime();
        long maxLag = TimeUnit.MILLISECONDS.toNanos(MAX_LAG_MILLIS);
        try {
            for (int i = 0; i < count; i++) {
                long due = start + (long) i * 1_000_000_000L / perSecond;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                inFlight.acquire();
                long lag = System.nanoTime() - due;
                if (lag > maxLag) {
                    start += lag - maxLag; // held up: the schedule moves later rather than bursting
                }
                String id = Messages.id(i);
                String key = Messages.key(i, keyCount);
                producer.sendAt(Messages.content(id, key), Instant.EPOCH, key).whenComplete((r, f) -> {
                    if (f == null) {
                        history.acked(id, key, r.slot());
                    } else {
                        history.nacked(id, key);
                        nacked.incrementAndGet();
                        failures.computeIfAbsent(reason(f), k -> new LongAdder()).increment();
                    }
                    completed.incrementAndGet();
                    inFlight.release();
                });
            }
            inFlight.acquire(IN_FLIGHT);
            lastSendMillis = System.currentTimeMillis();
            done.complete(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.completeExceptionally(e);
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
    }

    private static String reason(Throwable f) {
        Throwable root = f;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** Why sends failed, with how many failed so. */
    Map<String, Long> failureReasons() {
        Map<String, Long> reasons = new TreeMap<>();
        failures.forEach((r, n) -> reasons.put(r, n.sum()));
        return reasons;
    }

    /** Sends completed so far (acknowledged or not). */
    long completed() {
        return completed.get();
    }

    long nacked() {
        return nacked.get();
    }

    boolean isDone() {
        return done.isDone();
    }

    /** Waits until every send has completed; returns when that was (epoch millis). */
    long await(long minutes) {
        try {
            done.get(minutes, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new AssertionError("the load did not finish within " + minutes + " min", e);
        }
        return lastSendMillis;
    }
}
