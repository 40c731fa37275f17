package io.rmq.engine.consume.flow;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live copy of one topic's flow hash in one engine, shared by the topic's consumers: it reads the hash
 * ({@code HGETALL}) when the first of them joins, again as soon as a reply of the limiter shows another generation
 * ({@link #genSeen}), and every {@value #REFRESH_MILLIS} ms while a consumer of the topic pops ({@link #active}), so
 * that a change reaches every consumer within a second, with or without a limit of their own. While the topic's
 * consumers are idle (no pop for {@value #ACTIVE_MILLIS} ms) it reads every {@value #IDLE_REFRESH_MILLIS} ms only,
 * and at once when one of them pops again: an idle consumer costs Redis next to nothing. Listeners are told of every
 * change of the settings (not of the limiter's running state). A failed read changes nothing; the next one retries.
 * Thread-safe.
 */
public final class FlowSettingsCache {

    /** The longest time between two reads of the hash while a consumer of the topic pops. */
    public static final long REFRESH_MILLIS = 1000;
    /** How long after its last pop a consumer of the topic counts as popping. */
    public static final long ACTIVE_MILLIS = 5_000;
    /** The longest time between two reads of the hash while the topic's consumers are idle. */
    public static final long IDLE_REFRESH_MILLIS = 30_000;
    private static final long ACTIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(ACTIVE_MILLIS);
    private static final long IDLE_REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_REFRESH_MILLIS);

    /** Reads the topic's flow hash: its fields, an empty map when it does not exist. */
    @FunctionalInterface
    public interface Reader {
        CompletionStage<Map<String, String>> read();
    }

    /** Told of a change of the settings; on a Redis client's or the housekeeping thread: return quickly. */
    @FunctionalInterface
    public interface Listener {
        void changed(FlowSettings before, FlowSettings now);
    }

    private final Reader reader;
    private final ScheduledExecutorService scheduler;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile boolean readAgain;
    private volatile boolean closed;
    private volatile FlowSettings current = FlowSettings.NONE;
    private ScheduledFuture<?> refreshing; // guarded by this
    private final AtomicLong deadlinesPassed = new AtomicLong();
    /** When ({@link System#nanoTime()}) a consumer of the topic last popped; the read before, when none has. */
    private volatile long lastActive = System.nanoTime() - ACTIVE_NANOS;
    private volatile long lastRead = System.nanoTime() - IDLE_REFRESH_NANOS;

    public FlowSettingsCache(Reader reader, ScheduledExecutorService scheduler) {
        this.reader = reader;
        this.scheduler = scheduler;
    }

    /** The settings last read ({@link FlowSettings#NONE} before the first read). */
    public FlowSettings current() {
        return current;
    }

    /**
     * Adds a listener, told at once of the settings read before (unless there were none) and of those read from now
     * on, and reads the hash every second while any listener is joined. Returns how to leave.
     */
    public synchronized Runnable join(Listener listener) {
        listeners.add(listener);
        FlowSettings known = current;
        if (known.gen() > 0 || !known.fields().isEmpty()) {
            listener.changed(FlowSettings.NONE, known);
        }
        if (refreshing == null) {
            refresh();
            refreshing = scheduler.scheduleWithFixedDelay(this::periodicRead, REFRESH_MILLIS, REFRESH_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
        return () -> leave(listener);
    }

    /** Stops reading the hash (the engine closes): listeners are told nothing more. */
    public synchronized void close() {
        closed = true;
        listeners.clear();
        if (refreshing != null) {
            refreshing.cancel(false);
            refreshing = null;
        }
    }

    private synchronized void leave(Listener listener) {
        listeners.remove(listener);
        if (listeners.isEmpty() && refreshing != null) {
            refreshing.cancel(false);
            refreshing = null;
        }
    }

    /**
     * {@code count} deliveries of the topic were rolled back at their deadline (found by this engine's sweeper):
     * failures for the adaptive slow-down, reported by the next reservation of any consumer of the topic here.
     */
    public void deadlinesPassed(long count) {
        deadlinesPassed.addAndGet(count);
    }

    /** The deliveries rolled back at their deadline since the previous call. */
    public long takeDeadlinesPassed() {
        return deadlinesPassed.getAndSet(0);
    }

    /**
     * A consumer of the topic pops: the hash is read every second from now on, and at once if the topic's consumers
     * were idle (a change made meanwhile applies from this pop's reply on). Cheap: called for every pop.
     */
    public void active() {
        long now = System.nanoTime();
        long before = lastActive;
        lastActive = now;
        if (now - before > ACTIVE_NANOS) {
            refresh();
        }
    }

    private void periodicRead() {
        long now = System.nanoTime();
        if (now - lastActive <= ACTIVE_NANOS || now - lastRead >= IDLE_REFRESH_NANOS) {
            refresh();
        }
    }

    /** A reply of the limiter carried generation {@code gen}: another than the one cached is read at once. */
    public void genSeen(long gen) {
        if (gen != current.gen()) {
            refresh();
        }
    }

    /** Reads the hash now; a read asked for while one is under way is made once it ends. */
    public void refresh() {
        if (closed) {
            return;
        }
        if (!reading.compareAndSet(false, true)) {
            readAgain = true;
            return;
        }
        lastRead = System.nanoTime();
        CompletionStage<Map<String, String>> read;
        try {
            read = reader.read();
        } catch (RuntimeException e) { // thrown rather than returned: a failed read all the same
            read = CompletableFuture.failedFuture(e);
        }
        read.whenComplete((fields, failure) -> {
            if (failure == null) {
                apply(FlowSettings.of(fields));
            }
            reading.set(false);
            if (readAgain) {
                readAgain = false;
                refresh();
            }
        });
    }

    private void apply(FlowSettings read) {
        FlowSettings before = current;
        current = read;
        if (!before.sameSettings(read)) {
            for (Listener l : listeners) {
                l.changed(before, read);
            }
        }
    }
}
