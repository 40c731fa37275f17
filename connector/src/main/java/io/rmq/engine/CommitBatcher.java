package io.rmq.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.rmq.engine.i18n.EngineLogging;

/**
 * Gathers the commits of one slot and sends them with one {@code commit} script call: a commit is
 * sent at once when no call for the slot is under way, and otherwise joins the next call, which
 * leaves as soon as the current one returns. No timer: under load a call carries everything that
 * arrived during the previous round trip, and an isolated commit waits for nothing.
 *
 * <p>Thread-safe: {@link #add} may be called from any thread; calls complete on Lettuce's threads.
 */
final class CommitBatcher {

    private static final int MAX_PER_CALL = 1024;

    private final TopicScripts scripts;
    private final int slot;
    private final Consumer<List<Delivery>> onDone;
    private final Queue<Delivery> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean sending = new AtomicBoolean();
    private volatile CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    /** @param onDone told of each batch once its call is answered (or failed: the messages are redelivered after their deadline) */
    CommitBatcher(TopicScripts scripts, int slot, Consumer<List<Delivery>> onDone) {
        this.scripts = scripts;
        this.slot = slot;
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
        List<byte[]> members = new ArrayList<>(batch.size());
        for (Delivery member : batch) {
            members.add(member.content());
        }
        CompletionStage<Long> reply = scripts.commit(slot, members);
        reply.whenComplete((count, failure) -> {
            if (failure != null) {
                EngineLogging.log.commitFailed(batch.size(), slot, scripts.keys().topic().name(),
                        RmqClient.rootMessage(failure));
            }
            onDone.accept(batch);
            sending.set(false);
            call.complete(null);
            trySend();
        });
    }
}
