package io.rmq.engine.settlement;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.scripts.TopicScripts;

/**
 * Commits and rollbacks of one consumer that failed because Redis was briefly unreachable (a lost
 * connection, a master failing over, a cluster without a master for a slot), kept and sent again by
 * {@link #retry()}, which the consumer calls every {@link #DEFAULT_RETRY_INTERVAL_MILLIS} ms while something is
 * kept. Without them a failover turns every commit in flight into a redelivery after the whole prepare
 * timeout.
 *
 * <p>Bounded: at most {@link #DEFAULT_MAX_KEPT} members, and none older than the prepare timeout (by then the
 * sweeper redelivers the message anyway); what a bound drops is logged (RMQ-0123) and redelivered after its
 * deadline, as before. A retried commit is safe: it only removes members still in the prepare queue, and the
 * message was processed successfully once.
 *
 * <p>Thread-safe: the queue is guarded by this object's monitor; calls to Redis complete on Lettuce's threads.
 */
public final class SettlementRetries {

    /** The most members kept for a retry, commits and rollbacks together. */
    static final int DEFAULT_MAX_KEPT = 100_000;
    /** How often the consumer calls {@link #retry()} while something is kept. */
    public static final long DEFAULT_RETRY_INTERVAL_MILLIS = 250;

    private static final EngineLogging LOG = EngineLogging.log;

    private enum Kind { COMMIT, ROLLBACK }

    private record Kept(Kind kind, int slot, List<byte[]> members, String failure, TopicScripts.RetryRule rule,
            long sinceNanos) {
    }

    private final TopicScripts scripts;
    private final SettlementPolicy policy;
    private final LongSupplier nanoTime;
    private final int maxKept;
    private final Deque<Kept> kept = new ArrayDeque<>();
    private final AtomicBoolean retrying = new AtomicBoolean();
    private int keptMembers;

    public SettlementRetries(TopicScripts scripts, SettlementPolicy policy) {
        this(scripts, policy, System::nanoTime, DEFAULT_MAX_KEPT);
    }

    public SettlementRetries(TopicScripts scripts, SettlementPolicy policy, LongSupplier nanoTime, int maxKept) {
        this.scripts = scripts;
        this.policy = policy;
        this.nanoTime = nanoTime;
        this.maxKept = maxKept;
    }

    /**
     * Whether a failed call may succeed when sent again: Redis could not be reached or had no master for the
     * slot; not a script's own error.
     */
    static boolean isTransient(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof RedisUnavailableException || t instanceof RedisConnectionException
                || t instanceof RedisCommandTimeoutException) {
            return true;
        }
        if (t instanceof RedisCommandExecutionException e) {
            String m = String.valueOf(e.getMessage());
            return m.startsWith("CLUSTERDOWN") || m.startsWith("TRYAGAIN") || m.startsWith("LOADING")
                    || m.startsWith("READONLY") || m.startsWith("MASTERDOWN");
        }
        // Lettuce's own: "Currently not connected", "Connection closed", "Connection disconnected", ...
        return t instanceof RedisException || t instanceof IOException;
    }

    /** Keeps a failed commit; {@code false} when the failure is not transient (nothing kept). */
    boolean keepCommit(int slot, List<byte[]> members, Throwable failure) {
        return keep(new Kept(Kind.COMMIT, slot, members, null, null, nanoTime.getAsLong()), failure);
    }

    /**
     * Keeps a failed rollback, to be sent again with the same retry rule (a dead-lettering one stays one);
     * {@code false} when the failure is not transient (nothing kept).
     */
    boolean keepRollback(int slot, TopicScripts.RetryRule rule, List<byte[]> members, String reason, Throwable failure) {
        return keep(new Kept(Kind.ROLLBACK, slot, members, reason, rule, nanoTime.getAsLong()), failure);
    }

    private boolean keep(Kept k, Throwable failure) {
        if (!isTransient(failure)) {
            return false;
        }
        List<Kept> dropped = new ArrayList<>();
        synchronized (this) {
            kept.addLast(k);
            keptMembers += k.members().size();
            while (keptMembers > maxKept && kept.size() > 1) {
                Kept oldest = kept.removeFirst();
                keptMembers -= oldest.members().size();
                dropped.add(oldest);
            }
        }
        dropped.forEach(d -> drop(d, "more than " + maxKept + " members are kept for a retry"));
        return true;
    }

    /** How many members are kept for a retry. */
    synchronized int keptMembers() {
        return keptMembers;
    }

    /**
     * Sends everything kept again; what fails transiently again stays kept (with its first failure's time), what
     * is older than the prepare timeout is dropped. Does nothing while a previous retry is under way.
     *
     * @return completes once every call of this round was answered
     */
    public CompletionStage<Void> retry() {
        List<Kept> round;
        synchronized (this) {
            if (kept.isEmpty() || !retrying.compareAndSet(false, true)) {
                return CompletableFuture.completedFuture(null);
            }
            round = new ArrayList<>(kept);
            kept.clear();
            keptMembers = 0;
        }
        long maxAgeNanos = policy.prepareTimeout().toNanos();
        List<CompletableFuture<Void>> calls = new ArrayList<>(round.size());
        for (Kept k : round) {
            long ageNanos = nanoTime.getAsLong() - k.sinceNanos();
            if (ageNanos > maxAgeNanos) {
                drop(k, "older than the prepare-timeout of " + policy.prepareTimeout().toMillis() + " ms");
                continue;
            }
            calls.add(send(k).<Void>handle((v, failure) -> {
                if (failure == null) {
                    LOG.settlementRetried(k.members().size(), k.kind().name().toLowerCase(Locale.ROOT), k.slot(),
                            topic(), ageNanos / 1_000_000);
                } else if (!keep(k, failure)) {
                    drop(k, RmqClient.rootMessage(failure));
                }
                return null;
            }).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).whenComplete((v, f) -> retrying.set(false));
    }

    private CompletionStage<?> send(Kept k) {
        // a retried commit is rare: it clears held expiries whether or not its members had any
        return k.kind() == Kind.COMMIT ? scripts.commit(k.slot(), k.members(), true)
                : scripts.rollback(k.slot(), k.rule(), k.failure(), k.members());
    }

    private void drop(Kept k, String why) {
        LOG.settlementRetryDropped(k.members().size(), k.kind().name().toLowerCase(Locale.ROOT), k.slot(), topic(),
                why);
    }

    private String topic() {
        return scripts.keys().topic().name();
    }
}
