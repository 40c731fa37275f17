package io.rmq.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/** What the scaling benchmark does to a Redis: the engine's sends and consumption, timed. */
final class ScalingWorkloads {

    private ScalingWorkloads() {
    }

    /**
     * A timed phase.
     *
     * @param messages         messages sent, or consumed and committed
     * @param seconds          until the last message was stored (send), or its commit handed to the engine (consume)
     * @param committedSeconds until every prepare queue was empty again (consume, when awaited), else {@code seconds}
     */
    record Rate(long messages, double seconds, double committedSeconds) {
        double perSecond() {
            return messages / seconds;
        }

        double untilCommittedPerSecond() {
            return messages / committedSeconds;
        }
    }

    /** An engine, a topic and a key-counting connection on one {@link ScalingTarget}. */
    static final class Workload implements AutoCloseable {

        private final ScalingSettings s;
        private final RmqEngine engine;
        private final TopicKeys keys;
        private final TopicProducer producer;
        private final BenchRedis plain;

        Workload(ScalingTarget redis, ScalingSettings s, String topic) {
            this.s = s;
            this.engine = new RmqEngine(redis.uri()).start();
            engine.ready().toCompletableFuture().join();
            this.keys = engine.registerTopic(new TopicDefinition(topic, s.slots(), TopicType.FIXED_TIME))
                    .toCompletableFuture().join();
            this.producer = engine.producer(keys);
            this.plain = new BenchRedis(redis.uri(), redis.cluster());
        }

        /** Sends {@code count} unique messages, due at once, at most {@code window} unacknowledged. */
        Rate send(int count, String run) throws InterruptedException {
            SendWindow window = new SendWindow(s.window());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Instant due = Instant.ofEpochMilli(1);
            long start = System.nanoTime();
            for (int i = 0; i < count && failure.get() == null; i++) {
                window.acquire(1);
                producer.sendAt(payload(run, i), due, null).whenComplete((r, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    window.release(1);
                });
            }
            window.acquire(s.window());
            long end = System.nanoTime();
            if (failure.get() != null) {
                throw new IllegalStateException("a send failed", failure.get());
            }
            return new Rate(count, (end - start) / 1e9, (end - start) / 1e9);
        }

        /**
         * The same members with the same score as {@link #send} stores, in one sorted set of their own:
         * {@code ZADD} of 100 members per command, at most {@code window / 100} commands in flight.
         */
        Rate bareSortedSet(int count, String run, String key) throws InterruptedException {
            int perCommand = 100;
            int commands = Math.max(1, s.window() / perCommand);
            SendWindow window = new SendWindow(commands);
            long start = System.nanoTime();
            for (int i = 0; i < count; i += perCommand) {
                List<byte[]> members = new ArrayList<>();
                for (int j = i; j < Math.min(count, i + perCommand); j++) {
                    members.add(payload(run, j));
                }
                window.acquire(1);
                plain.zaddAll(key, 1, members).whenComplete((r, e) -> window.release(1));
            }
            window.acquire(commands);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Rate(count, seconds, seconds);
        }

        /**
         * {@code consumers} consumers, each asking for {@code window} messages and one more per commit,
         * take {@code count} messages and commit each; then (if asked) waits until every prepare queue is empty.
         */
        Rate consume(int count, boolean awaitEmptyPrepare) throws Exception {
            CountDownLatch done = new CountDownLatch(count);
            AtomicLong taken = new AtomicLong();
            List<TopicConsumer> consumers = new ArrayList<>();
            ConsumerOptions options = ConsumerOptions.builder().batchSize(s.batchSize()).build();
            long start = System.nanoTime();
            for (int c = 0; c < s.consumers(); c++) {
                TopicConsumer consumer = engine.consumer(keys, options, "scaling-" + c);
                consumers.add(consumer);
                consumer.start(d -> {
                    d.commit();
                    if (taken.incrementAndGet() <= count) {
                        done.countDown();
                        consumer.request(1);
                    }
                });
                consumer.request(Math.max(1, s.batchSize()));
            }
            if (!done.await(600, TimeUnit.SECONDS)) {
                throw new IllegalStateException("only " + (count - done.getCount()) + " of " + count
                        + " messages consumed within 600 s");
            }
            long consumed = System.nanoTime();
            long committed = consumed;
            if (awaitEmptyPrepare) {
                while (plain.prepared(keys) > 0) {
                    Thread.sleep(1);
                }
                committed = System.nanoTime();
            }
            List<CompletableFuture<Void>> closing = new ArrayList<>();
            consumers.forEach(c -> closing.add(c.closeAsync().toCompletableFuture()));
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            return new Rate(count, (consumed - start) / 1e9, (committed - start) / 1e9);
        }

        /**
         * A unique message of {@code payloadBytes}: the run name and the index, padded with letters drawn
         * from a generator seeded by the index (the same message for the same index; not compressible
         * like a run of one letter, so that RDB sizes are not flattered).
         */
        private byte[] payload(String run, int i) {
            byte[] bytes = new byte[s.payloadBytes()];
            SplittableRandom random = new SplittableRandom(i);
            for (int b = 0; b < bytes.length; b++) {
                bytes[b] = (byte) ('a' + random.nextInt(26));
            }
            byte[] head = (run + "-" + i + "-").getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(head, 0, bytes, 0, Math.min(head.length, bytes.length));
            return bytes;
        }

        @Override
        public void close() {
            plain.close();
            engine.close();
        }
    }
}
