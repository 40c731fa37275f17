package io.rmq.engine.settlement;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.support.SlotBatcher;

/**
 * Deliveries for the JMH benchmarks of the consume path, outside this package: each is settled as
 * {@link Settlement} settles it (the first of commit and rollback wins, a commit joins its slot's
 * {@link SlotBatcher}), with batches that complete at once instead of going to Redis.
 */
public final class BenchmarkDeliveries {

    private static final CompletionStage<Void> DONE = CompletableFuture.completedStage(null);

    private final SlotBatcher<Delivery> commits = new SlotBatcher<>(1024, batch -> DONE);
    private final Delivery.Settler settler = new Delivery.Settler() {
        @Override
        public CompletionStage<Void> commit(Delivery d) {
            if (d.finish() >= 0) {
                commits.add(d);
            }
            return DONE;
        }

        @Override
        public CompletionStage<Void> rollback(Delivery d, Throwable reason) {
            d.finish();
            return DONE;
        }

        @Override
public CompletionStage<Void> deadLetter(Delivery d, Throwable reason) {
            d.finish();
            return DONE;
        }
    };

    /** A delivery of slot 3 of topic {@code bench}, first attempt, popped with this score. */
    public Delivery delivery(byte[] content, String rawScore) {
        return new Delivery(settler, "bench", 3, new TopicScripts.PoppedMember(content,
                rawScore.getBytes(StandardCharsets.US_ASCII), 1));
    }

    /** Marks it handed over, as the consumer loop does before the listener gets it. */
    public static boolean markDelivered(Delivery d) {
        return d.markDelivered();
    }

    /** What the pop of {@code members} members returns, as Lettuce hands it over: all of them of one score. */
    public static List<Object> popReply(int members, byte[] content, String rawScore) {
        List<Object> contents = new ArrayList<>(members);
        for (int i = 0; i < members; i++) {
            contents.add(content.clone());
        }
        return List.of(0L /* POPPED */, 1_764_240_000_000L, 0L, 0L, 0L /* expired */, 0L /* held */,
                0L /* no attempts: every member on its first delivery */, contents,
                List.of(rawScore.getBytes(StandardCharsets.US_ASCII), (long) members), List.of(), List.of(), List.of());
    }
}
