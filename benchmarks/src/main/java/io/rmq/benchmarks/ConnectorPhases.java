package io.rmq.benchmarks;

import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.examples.support.Console;
import io.rmq.examples.support.ExampleRedis;

/**
 * The phases the benchmark runs through the connector, in a started {@link BenchContainer}: warm-up,
 * send then consume, and FIXED_TIME lateness (idle, or beside a background load). Use from the main thread.
 */
record ConnectorPhases(BenchSettings s, ExampleRedis redis, String keyPrefix) {

    /** The figures of a send-then-consume run. */
    record Throughput(Counters.Phase send, Counters.Phase acked, Counters.Phase committed) {
    }

    /** {@code count} messages sent and consumed, not measured. */
    void warmUp(BenchContainer c, String topic, int slots, int count) throws Exception {
        if (count == 0) {
            return;
        }
        Measures.progress("warm-up: %,d messages sent and consumed ...", count);
        var warmedUp = c.throughput.whenAcked(count);
        check(c.sender.sendThroughput(count, s.maxInflight(), i -> Message.of(payload("warmup-" + i + "-"))));
        warmedUp.get(120 + count / 1_000, TimeUnit.SECONDS);
        awaitEmpty(topic, slots, 60);
    }

    /**
     * {@link #warmUp}, then {@code count} messages sent while the consumers are held and consumed after, as the
     * measured run does, not measured: the code of both phases compiled before either is measured, as the bare
     * client's warm-up (send, then consume) does for it.
     */
    void warmUpSteady(BenchContainer c, String topic, int slots, int count) throws Exception {
        warmUp(c, topic, slots, count);
        if (count > 0) {
            Measures.progress("warm-up: %,d messages sent while the consumers are held, then consumed ...", count);
            sendThenConsume(c, topic, slots, count);
        }
    }

    /**
     * Sends {@code count} messages while the consumers are held, then releases them: the send's figures,
     * and the consume's until every {@code ack()} completed and until every commit reached Redis.
     */
    Throughput sendThenConsume(BenchContainer c, String topic, int slots, int count) throws Exception {
        Measures.progress("sending %,d messages while the consumers are held ...", count);
        c.throughput.pause();
        var allAcked = c.throughput.whenAcked(count);
        Counters beforeSend = Counters.take(redis);
        BenchSender.Sent sent = check(c.sender.sendThroughput(count, s.maxInflight(),
                i -> Message.of(payload("run-" + i + "-"))));
        Counters afterSend = Counters.take(redis);
        long stored = queued(topic, slots);
        if (stored != count) {
            Console.say("!! %,d messages are in Redis, %,d were sent", stored, count);
        }

        Measures.progress("consuming them ...");
        Counters beforeConsume = Counters.take(redis);
        c.throughput.resume();
        long ackedAt = allAcked.get(120 + count / 1_000, TimeUnit.SECONDS);
        Counters afterAck = Counters.take(redis);
        awaitEmpty(topic, slots, 60);
        Counters afterCommit = Counters.take(redis);
        // the ack figures end when the last ack() completed, not when they were read
        Counters acked = afterAck.at(ackedAt);
        return new Throughput(afterSend.since(beforeSend, sent.acked()), acked.since(beforeConsume, count),
                afterCommit.since(beforeConsume, count));
    }

    /**
     * Sends {@code count} messages as fast as the sender's window allows while the consumers consume them:
     * the rate of a live system that carries all it can, until every commit reached Redis.
     */
    Counters.Phase sendAndConsumeAtOnce(BenchContainer c, String topic, int slots, int count) throws Exception {
        Measures.progress("sending %,d messages while the consumers consume them ...", count);
        var allAcked = c.throughput.whenAcked(count);
        Counters before = Counters.take(redis);
        check(c.sender.sendThroughput(count, s.maxInflight(), i -> Message.of(payload("at-once-" + i + "-"))));
        allAcked.get(120 + count / 1_000, TimeUnit.SECONDS);
        awaitEmpty(topic, slots, 60);
        return Counters.take(redis).since(before, count);
    }

    /** FIXED_TIME lateness with nothing else running. */
    BenchResults.Lateness latenessIdle(BenchContainer c) throws Exception {
        Measures.progress("lateness, idle: %,d FIXED_TIME messages due from +%d to +%d ms ...", s.latenessMessages(),
                s.latenessLeadMs(), s.latenessLeadMs() + s.latenessSpreadMs());
        return lateness(c, "idle", 0, null);
    }

    /**
     * FIXED_TIME lateness while a background producer keeps the load topic consumed at about
     * {@code loadPerSecond} messages per second.
     */
    BenchResults.Lateness latenessUnderLoad(BenchContainer c, double loadPerSecond) throws Exception {
        Measures.progress("lateness, half load: %,d FIXED_TIME messages due from +%d to +%d ms, beside %,.0f"
                        + " messages/s sent and consumed on another topic ...", s.latenessMessages(), s.latenessLeadMs(),
                s.latenessLeadMs() + s.latenessSpreadMs(), loadPerSecond);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                outcome.set(c.sender.sendLoad(loadPerSecond, s.maxInflight(),
                        i -> Message.of(payload("load-" + i + "-")), stop::get));
            } catch (InterruptedException | RuntimeException e) {
                outcome.set(e);
            }
        }, "rmq-bench-load");
        producer.start();
        try {
            // the load flows before the lateness messages go: a quarter of a second's worth consumed
            long flowing = c.load.acked() + (long) (loadPerSecond / 4);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (c.load.acked() < flowing && System.nanoTime() - deadline < 0 && producer.isAlive()) {
                Thread.sleep(5);
            }
            return lateness(c, "half load", loadPerSecond, c.load);
        } finally {
            stop.set(true);
            producer.join();
            if (outcome.get() instanceof Throwable failure) {
                throw new IllegalStateException("the background load failed", failure);
            }
            check((BenchSender.Sent) outcome.get());
            awaitEmpty(BenchChannels.LOAD_TOPIC, s.slots(), 60);
        }
    }

    private BenchResults.Lateness lateness(BenchContainer c, String condition, double loadTarget, LoadConsumer load)
            throws Exception {
        int count = s.latenessMessages();
        var all = c.lateness.expect(count);
        Counters.MachineTicks machine = Counters.MachineTicks.read();
        SplittableRandom random = new SplittableRandom(42);
        long start = System.currentTimeMillis();
        long loadStart = load == null ? 0 : load.acked();
        long firstDue = start + s.latenessLeadMs();
        check(c.sender.sendLateness(count, s.maxInflight(), i -> {
            long due = firstDue + random.nextLong(s.latenessSpreadMs());
            return Message.of(payload("due-" + due + "-" + i + "-"))
                    .addMetadata(OutgoingRmqMetadata.builder().withDeliverAt(Instant.ofEpochMilli(due)).build());
        }));
        long sentWithin = System.currentTimeMillis() - start;
        try {
            all.get(s.latenessLeadMs() + s.latenessSpreadMs() + 60_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            Console.say("!! not every lateness message arrived");
        }
        long end = System.currentTimeMillis();
        double steal = Counters.MachineTicks.read().stealSince(machine);
        double loadPerSecond = load == null ? 0 : (load.acked() - loadStart) * 1000.0 / Math.max(1, end - start);
        if (load != null && loadPerSecond < 0.8 * loadTarget) {
            Console.say("!! the background load reached %,.0f of the %,.0f messages/s aimed at: the machine did not"
                    + " carry it beside the lateness messages, so this lateness is that of an overloaded system",
                    loadPerSecond, loadTarget);
        }
        if (sentWithin > s.latenessLeadMs()) {
            Console.say("!! sending took %d ms, longer than the lead: some messages were due before they were sent;"
                    + " raise bench.lateness-lead-ms", sentWithin);
        }
        return new BenchResults.Lateness(condition, c.lateness.sortedLateness(), count, sentWithin, loadTarget,
                loadPerSecond, steal);
    }

    byte[] payload(String head) {
        return Measures.payload(s.payloadBytes(), head);
    }

    /** Waits until the topic's store and prepare queues are empty: every message consumed and committed. */
    void awaitEmpty(String topic, int slots, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (queued(topic, slots) > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " still holds " + queued(topic, slots)
                        + " messages after " + seconds + " s");
            }
            Thread.sleep(2);
        }
    }

    /** Messages in the store and prepare queues of all slots. */
    private long queued(String topic, int slots) {
        long n = 0;
        for (int slot = 0; slot < slots; slot++) {
            String store = keyPrefix + topic + "_" + slot;
            n += redis.commands().zcard(store) + redis.commands().zcard("prepare{" + store + "}");
        }
        return n;
    }

    static BenchSender.Sent check(BenchSender.Sent sent) {
        if (sent.failed() > 0) {
            throw new IllegalStateException(sent.failed() + " messages were refused", sent.firstFailure());
        }
        return sent;
    }
}
