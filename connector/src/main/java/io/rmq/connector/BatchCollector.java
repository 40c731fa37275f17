package io.rmq.connector;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Gathers the messages of an incoming channel with {@code batch=true} into batches: the messages one hand-over of
 * the consumer gives (those popped together, at most {@code batch-size}) make one batch. The subscriber's demand
 * counts batches; while it has some, the consumer is asked for up to {@code batch-size} messages at a time. A
 * batch gathered while the subscriber asks for none waits for its next request. Thread-safe.
 */
final class BatchCollector {

    private final int batchSize;
    private final LongConsumer askConsumer;
    private final Consumer<List<IncomingRmqMessage>> emit;
    /** Batches the subscriber asked for and has not received. */
    private long demand;
    /** Messages asked of the consumer and not received yet. */
    private long outstanding;
    private List<IncomingRmqMessage> collected = new ArrayList<>();

    /**
     * @param askConsumer asks the consumer for more messages
     * @param emit        hands a batch to the subscriber
     */
    BatchCollector(int batchSize, LongConsumer askConsumer, Consumer<List<IncomingRmqMessage>> emit) {
        this.batchSize = batchSize;
        this.askConsumer = askConsumer;
        this.emit = emit;
    }

    /** The subscriber asks for {@code n} more batches. */
    synchronized void request(long n) {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        flush();
        askMore();
    }

    /** A message of the current hand-over. */
    synchronized void add(IncomingRmqMessage message) {
        collected.add(message);
        outstanding--;
    }

    /** A delivery of the current hand-over that did not become a message (settled as a failure). */
    synchronized void skipped() {
        outstanding--;
    }

    /** The consumer's hand-over ended: what it gave is a batch. */
    synchronized void handOverEnd() {
        flush();
        askMore();
    }

    /** Takes out the messages gathered and not handed to the subscriber, for the channel to settle at its end. */
    synchronized List<IncomingRmqMessage> takeAll() {
        List<IncomingRmqMessage> left = collected;
        collected = new ArrayList<>();
        return left;
    }

    private void flush() {
        if (demand > 0 && !collected.isEmpty()) {
            List<IncomingRmqMessage> batch = collected;
            collected = new ArrayList<>();
            demand--;
            emit.accept(batch);
        }
    }

    private void askMore() {
        if (demand > 0 && outstanding <= 0) {
            outstanding = batchSize;
            askConsumer.accept(batchSize);
        }
    }
}
