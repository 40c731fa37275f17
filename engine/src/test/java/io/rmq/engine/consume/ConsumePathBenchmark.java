package io.rmq.engine.consume;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.BenchmarkDeliveries;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.support.SlotBatcher;

/**
 * JMH benchmarks of the engine's share of consuming a message, per message: reading a pop reply into
 * deliveries, reading a score, and settling (commit gathered per slot). Run as described in
 * {@code docs/profiling.md}; with {@code -prof gc}, {@code gc.alloc.rate.norm} is the bytes allocated per message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConsumePathBenchmark {

    /** Members per pop, as with the default batch size. */
    static final int BATCH = 32;
    private static final String SCORE = "1764240000123";
    private static final CompletionStage<Void> DONE = CompletableFuture.completedStage(null);

    private final Delivery.Settler settler = new Delivery.Settler() {
        @Override
        public CompletionStage<Void> commit(Delivery d) {
            return DONE;
        }

        @Override
        public CompletionStage<Void> rollback(Delivery d, Throwable reason) {
            return DONE;
        }

        @Override
public CompletionStage<Void> deadLetter(Delivery d, Throwable reason) {
            return DONE;
        }
    };
    private List<Object> reply;
    private byte[] rawScore;
    private SlotBatcher<Delivery> batcher;

    @Setup
    public void setUp() {
        byte[] content = new byte[100];
        Arrays.fill(content, (byte) 'x');
        reply = BenchmarkDeliveries.popReply(BATCH, content, SCORE);
        rawScore = SCORE.getBytes(StandardCharsets.US_ASCII);
        batcher = new SlotBatcher<>(1024, batch -> DONE);
    }

    /** A pop reply of 32 members read into deliveries (per message). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public List<Delivery> popReplyToDeliveries() {
        TopicScripts.PopReply r = TopicScripts.popReply(reply);
        return Delivery.of(settler, "bench", 3, r.members());
    }

    /** The score of a delivery, read for its metadata. */
    @Benchmark
    public double score() {
        return Delivery.parseScore(rawScore);
    }

    /** The same score read as the engine read it before: a String, then {@link Double#parseDouble}. */
    @Benchmark
    public double scoreThroughString() {
        return Double.parseDouble(new String(rawScore, StandardCharsets.US_ASCII));
    }

    /**
     * A delivery's life in the engine after the pop: handed over, committed, gathered into its slot's
     * batch (here a batch that completes at once instead of a script call).
     */
    @Benchmark
    public boolean deliverAndCommit() {
        Delivery d = new Delivery(settler, "bench", 3, new TopicScripts.PoppedMember(rawScore, rawScore, 1));
        boolean delivered = d.markDelivered();
        if (d.finish() >= 0) {
            batcher.add(d);
        }
        return delivered;
    }
}
