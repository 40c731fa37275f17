package io.rmq.engine.consume;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.settlement.HeldMessages;
import io.rmq.engine.settlement.Settlement;

/**
 * The graceful stop of one consumer, as stages that the events themselves complete (no polling):
 *
 * <ol>
 * <li>the coordination is left first (if any), so that the leader hands the slots on while this
 * consumer finishes what it holds; in parallel:</li>
 * <li>the loop stops popping; once the last pop under way has returned, the prefetched messages,
 * never delivered, go back to the store queue at once (no attempt counted);</li>
 * <li>the last message in the application's hands is settled, or the shutdown timeout passes;</li>
 * <li>what is still unfinished then is released for redelivery, or, in serial mode, left in the
 * prepare queue for the sweeper (released, it could reach the slot's next owner while the
 * application still works on it);</li>
 * <li>the commits made so far are flushed.</li>
 * </ol>
 *
 * Stateless; each stage runs on the thread that completed the previous one.
 */
final class ConsumerShutdown {

    private ConsumerShutdown() {
    }

    /**
     * @param leaveCoordination completes once the consumer has left its topic's workers (at once without coordination)
     * @return completes once everything is committed, released or left, never exceptionally
     */
    static CompletionStage<Void> run(String name, ConsumerOptions options, ConsumerLoop loop, HeldMessages held,
            Settlement settlement, CompletionStage<Void> leaveCoordination) {
        Duration timeout = options.shutdownTimeout();
        CompletableFuture<Void> releasedPrefetch = loop.stop()
                .thenCompose(settlement::releaseAll)
                .toCompletableFuture();
        CompletableFuture<Void> settledOrTimedOut = held.noneDelivered().toCompletableFuture()
                .completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
        return releasedPrefetch.thenCombine(settledOrTimedOut, (a, b) -> (Void) null)
                .thenCompose(v -> releaseOrLeaveUnfinished(name, options, held, settlement))
                .thenCompose(v -> settlement.flushed())
                .thenCombine(leaveCoordination, (a, b) -> (Void) null)
                .handle((v, f) -> (Void) null);
    }

    private static CompletionStage<Void> releaseOrLeaveUnfinished(String name, ConsumerOptions options, HeldMessages held,
            Settlement settlement) {
        List<Delivery> unfinished = held.unfinished();
        if (unfinished.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        boolean serial = options.coordination().isPresent();
        EngineLogging.log.unfinishedAtShutdown(unfinished.size(), name, options.shutdownTimeout().toMillis(), serial);
        return serial ? CompletableFuture.completedFuture(null) : settlement.releaseAll(unfinished);
    }
}
