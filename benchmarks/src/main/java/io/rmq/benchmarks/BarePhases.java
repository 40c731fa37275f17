package io.rmq.benchmarks;

import java.util.Optional;

import io.rmq.benchmarks.BenchResults.How;
import io.rmq.benchmarks.BenchResults.Phase;
import io.rmq.benchmarks.BenchResults.SearchPoint;
import io.rmq.examples.support.ExampleRedis;

/**
 * The phases the benchmark runs with the bare Lettuce client ({@link RawBaseline}): a row at given consumers
 * and batch size (its send with single pipelined {@code ZADD}s, then its consume), the multi-member
 * {@code ZADD} send, sending and consuming at once, and the search for its best consumers x batch size. Each adds its figures to
 * {@code results}. Use from the main thread.
 */
record BarePhases(BenchSettings s, ExampleRedis redis, BenchResults results) {

    /** Members per {@code ZADD} of the grouped send: as many as the tuned channels pop at once by default. */
    static final int GROUPED_MEMBERS = 128;

    /**
     * {@code warmup} messages sent and consumed, not measured, in rounds until {@link Benchmark#JVM_WARMUP_SECONDS}
     * have passed: the same JIT warm-up as the connector's ({@code Benchmark}'s JVM warm-up).
     */
    void warmUp(RawBaseline raw, int consumers, int batch, int window) throws Exception {
        if (s.warmup() == 0) {
            return;
        }
        Measures.repeatFor(Benchmark.JVM_WARMUP_SECONDS, round -> {
            Measures.progress("bare Lettuce warm-up, round %d: %,d messages sent and consumed ...", round, s.warmup());
            raw.send(s.warmup(), window, i -> payload("raw-warmup-" + i + "-"));
            expect(raw.consume(consumers, batch), s.warmup());
        });
    }

    /**
     * {@code messages} messages sent with single pipelined {@code ZADD}s, at most {@code window} unanswered,
     * then consumed by {@code consumers} threads popping {@code batch} per script call: a send row and a
     * consume row of {@code how}.
     */
    void row(RawBaseline raw, How how, int consumers, int batch, int window) throws InterruptedException {
        Measures.progress("%s: %,d messages sent, then consumed by %d threads popping %d ...", how.label, s.messages(),
                consumers, batch);
        Counters before = Counters.take(redis);
        raw.send(s.messages(), window, i -> payload("rw" + how.ordinal() + "-" + i + "-"));
        Counters sent = Counters.take(redis);
        results.add(Phase.SEND, how, singleSend(window, raw.slots()), sent.since(before, s.messages()));
        results.add(Phase.CONSUME, how, consume(consumers, batch, raw.slots()),
                consumed(raw, consumers, batch, s.messages()));
    }

    /**
     * {@code messages} messages sent (not measured), then consumed by {@code consumers} threads popping {@code batch}
     * per script call; returns the consume rate, messages per second.
     */
    double consumeRound(RawBaseline raw, int consumers, int batch, int window) throws InterruptedException {
        Measures.progress("bare Lettuce: %,d messages sent, then consumed by %d threads popping %d ...", s.messages(),
                consumers, batch);
        raw.send(s.messages(), window, i -> payload("raw-" + i + "-"));
        return consumed(raw, consumers, batch, s.messages()).perSecond();
    }

    /** The {@code count} messages waiting consumed by {@code consumers} threads popping {@code batch}: the figures. */
    private Counters.Phase consumed(RawBaseline raw, int consumers, int batch, int count) throws InterruptedException {
        Counters start = Counters.take(redis);
        long consumed = raw.consume(consumers, batch);
        Counters end = Counters.take(redis);
        expect(consumed, count);
        return end.since(start, count);
    }

    /**
     * {@code messages} messages sent with one multi-member {@code ZADD} per slot for every
     * {@value #GROUPED_MEMBERS} of that slot: a send row; then consumed, not measured.
     */
    void groupedSend(RawBaseline raw, int consumers, int batch) throws InterruptedException {
        Measures.progress("%s: %,d messages sent, %d per ZADD ...", How.BARE_GROUPED.label, s.messages(), GROUPED_MEMBERS);
        Counters before = Counters.take(redis);
        raw.sendGrouped(s.messages(), s.maxInflight(), GROUPED_MEMBERS, i -> payload("rwg-" + i + "-"));
        Counters sent = Counters.take(redis);
        results.add(Phase.SEND, How.BARE_GROUPED, String.format("1 ZADD of up to %d members per slot, %d in flight,"
                + " %d slots", Math.min(GROUPED_MEMBERS, s.maxInflight()), s.maxInflight(), raw.slots()),
                sent.since(before, s.messages()));
        expect(raw.consume(consumers, batch), s.messages());
    }

    /**
     * {@code messages} messages sent while {@code consumers} threads consume them, popping {@code batch} per script
     * call: with single pipelined {@code ZADD}s, at most {@code window} unanswered ({@code grouped} false), or with
     * one multi-member {@code ZADD} per slot for every {@value #GROUPED_MEMBERS} of that slot: an at-once row of
     * {@code how}, measured until the last message was consumed and acked.
     */
    void atOnce(RawBaseline raw, How how, boolean grouped, int consumers, int batch, int window)
            throws InterruptedException {
        Measures.progress("%s: %,d messages sent while %d threads popping %d consume them ...", how.label,
                s.messages(), consumers, batch);
        String head = "raw-ao" + how.ordinal() + "-";
        RawBaseline.Send send = grouped
                ? () -> raw.sendGrouped(s.messages(), window, GROUPED_MEMBERS, i -> payload(head + i + "-"))
                : () -> raw.send(s.messages(), window, i -> payload(head + i + "-"));
        Counters start = Counters.take(redis);
        long consumed = raw.sendWhileConsuming(consumers, batch, s.messages(), send);
        Counters end = Counters.take(redis);
        expect(consumed, s.messages());
        String sending = grouped ? String.format("1 ZADD of up to %d members per slot, %d in flight",
                Math.min(GROUPED_MEMBERS, window), window)
                : String.format("1 ZADD per message, %d per pipeline flush, %d in flight", RawBaseline.PIPELINE, window);
        results.add(Phase.AT_ONCE, how, String.format("%s; %s, %d µs pause after a round of empty slots", sending,
                consume(consumers, batch, raw.slots()), RawBaseline.IDLE_PAUSE_MICROS), end.since(start, s.messages()));
    }

    /**
     * Consume throughput of every {@code best-bare-consumers} x {@code best-bare-batch-sizes}, each point
     * {@code best-bare-messages} messages (sent first, not measured); returns the fastest point.
     */
    Optional<SearchPoint> search(RawBaseline raw) throws InterruptedException {
        int count = s.bestBareMessages();
        for (int consumers : s.bestBareConsumers()) {
            for (int batch : s.bestBareBatchSizes()) {
                Measures.progress("bare Lettuce search, %d threads popping %d: %,d messages ...", consumers, batch, count);
                raw.send(count, s.maxInflight(), i -> payload("rws-" + i + "-"));
                double perSecond = consumed(raw, consumers, batch, count).perSecond();
                results.search().add(new SearchPoint(consumers, batch, count, perSecond));
            }
        }
        return results.bestSearched();
    }

    static String singleSend(int window, int slots) {
        return String.format("1 ZADD per message, %d per pipeline flush, %d in flight, %d slots", RawBaseline.PIPELINE,
                window, slots);
    }

    static String consume(int threads, int batch, int slots) {
        return String.format("%d thread%s, pop %d per script call, 1 ZREM per batch, %d slots", threads,
                threads == 1 ? "" : "s", batch, slots);
    }

    private byte[] payload(String head) {
        return Measures.payload(s.payloadBytes(), head);
    }

    private static void expect(long consumed, long sent) {
        if (consumed != sent) {
            throw new IllegalStateException("the bare client consumed " + consumed + " of " + sent + " messages");
        }
    }
}
