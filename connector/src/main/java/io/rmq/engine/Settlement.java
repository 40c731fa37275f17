package io.rmq.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.rmq.engine.i18n.EngineLogging;

/**
 * How one consumer's deliveries end: {@link Delivery#commit()} and {@link Delivery#rollback} land
 * here. The first of the two wins; a commit returns at once and joins its slot's
 * {@link SlotBatcher}, a rollback completes once Redis has retried or buried the message.
 *
 * <p>Thread-safe: called from any thread the application settles on.
 */
final class Settlement implements Delivery.Settler {

    private final TopicScripts scripts;
    private final HeldMessages held;
    private final Consumer<Delivery> deliveredFinished;
    /** Most commits one script call carries. */
    private static final int COMMITS_PER_CALL = 1024;

    private final Map<Integer, SlotBatcher<Delivery>> commits = new ConcurrentHashMap<>();

    /** @param deliveredFinished told when a message that was in the listener's hands is settled */
    Settlement(TopicScripts scripts, HeldMessages held, Consumer<Delivery> deliveredFinished) {
        this.scripts = scripts;
        this.held = held;
        this.deliveredFinished = deliveredFinished;
    }

    @Override
    public CompletionStage<Void> commit(Delivery d) {
        if (settle(d)) {
            commits.computeIfAbsent(d.slot(), s -> new SlotBatcher<>(COMMITS_PER_CALL, batch -> commitNow(s, batch)))
                    .add(d);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> rollback(Delivery d, Throwable reason) {
        return settle(d) ? held.rollback(d, reason) : CompletableFuture.completedFuture(null);
    }

    /** One commit call; a failed one leaves the messages to be redelivered after their deadline (at least once). */
    private CompletionStage<Void> commitNow(int slot, List<Delivery> batch) {
        List<byte[]> members = new ArrayList<>(batch.size());
        batch.forEach(d -> members.add(d.content()));
        return scripts.commit(slot, members).handle((n, failure) -> {
            if (failure != null) {
                EngineLogging.log.commitFailed(batch.size(), slot, scripts.keys().topic().name(),
                        RmqClient.rootMessage(failure));
            }
            held.committed(batch);
            return null;
        });
    }

    /** Finishes a delivery; false when it was finished already. */
    private boolean settle(Delivery d) {
        int left = d.finish();
        if (left < 0) {
            return false;
        }
        if (left == Delivery.DELIVERED) {
            held.deliveredSettled();
            deliveredFinished.accept(d);
        }
        return true;
    }

    /** Completes when every commit made so far has been sent and answered. */
    CompletionStage<Void> flushed() {
        return CompletableFuture.allOf(commits.values().stream()
                .map(c -> c.flushed().toCompletableFuture()).toArray(CompletableFuture[]::new));
    }
}
