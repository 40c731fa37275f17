package io.rmq.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Gathers the commits of one slot and sends them with one {@code commit} script call: a commit is
 * sent at once when no call for the slot is under way, and otherwise joins the next call, which
 * leaves as soon as the current one returns. No timer: under load a call carries everything that
 * arrived during the previous round trip, and an isolated commit waits for nothing.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread; calls complete on Lettuce's threads.
 */
final class CommitBatcher {

    private static final Logger LOG = Logger.getLogger(CommitBatcher.class.getName());
    private static final int MAX_PER_CALL = 1024;

    private final ScriptRunnerSupplier scripts;
    private final byte[][] keys;
    private final byte[] wakeChannel;
    private final byte[] slot;
    private final String description;
    private final Consumer<List<Delivery>> onDone;
    private final Queue<Delivery> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private volatile CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    /** Supplies the current script runner (it exists only once Redis was reached). */
    interface ScriptRunnerSupplier {
        ScriptRunner get();
    }

    CommitBatcher(ScriptRunnerSupplier scripts, SlotKeys slotKeys, String wakeChannel, String description,
            Consumer<List<Delivery>> onDone) {
        this.scripts = scripts;
        this.keys = new byte[][] { RmqEngine.bytes(slotKeys.store()), RmqEngine.bytes(slotKeys.prepare()),
                RmqEngine.bytes(slotKeys.attempts()), RmqEngine.bytes(slotKeys.origin()),
                RmqEngine.bytes(slotKeys.owner()) };
        this.wakeChannel = RmqEngine.bytes(wakeChannel);
        this.slot = RmqEngine.bytes(Integer.toString(slotKeys.slot()));
        this.description = description;
        this.onDone = onDone;
    }

    void add(Delivery delivery) {
        pending.add(delivery);
        trySend();
    }

    /** Completes when everything added so far has been sent and answered. */
    CompletionStage<Void> flushed() {
        trySend();
        return pending.isEmpty() ? idle : idle.thenCompose(v -> flushed());
    }

    private void trySend() {
        if (pending.isEmpty() || !sending.compareAndSet(false, true)) {
            return;
        }
        List<Delivery> batch = new ArrayList<>();
        Delivery d;
        while (batch.size() < MAX_PER_CALL && (d = pending.poll()) != null) {
            batch.add(d);
        }
        if (batch.isEmpty()) {
            sending.set(false);
            trySend();
            return;
        }
        CompletableFuture<Void> call = new CompletableFuture<>();
        idle = call;
        byte[][] args = new byte[2 + batch.size()][];
        args[0] = wakeChannel;
        args[1] = slot;
        for (int i = 0; i < batch.size(); i++) {
            args[2 + i] = batch.get(i).content();
        }
        CompletionStage<Long> reply;
        try {
            reply = scripts.get().run(RedisScript.COMMIT, keys, args);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((count, failure) -> {
            if (failure != null) {
                LOG.log(Level.WARNING, "RMQ-0101 Committing " + batch.size() + " message(s) of " + description
                        + " failed; they stay in the prepare queue and are redelivered after their deadline: "
                        + RmqEngine.rootMessage(failure));
            }
            onDone.accept(batch);
            sending.set(false);
            call.complete(null);
            trySend();
        });
    }
}
