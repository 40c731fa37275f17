package io.rmq.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.SlotRouter;

/**
 * The bare Lettuce client the connector is measured against: the same Redis, key layout, payloads and
 * message count, with no SmallRye and no engine (DESIGN.md section 8).
 *
 * <ul>
 * <li><b>Send:</b> one {@code ZADD} of one member per message, due at once, on one connection that
 * flushes every {@value #PIPELINE} commands, with at most a window of commands unanswered; or
 * ({@link #sendGrouped}) one multi-member {@code ZADD} per slot for every {@code members} messages of
 * that slot, with at most a window of messages unanswered.</li>
 * <li><b>Consume:</b> consumer threads, each with its own connection and its own share of the slots
 * (slot {@code s} belongs to thread {@code s mod threads}): each pops a batch of due members per call of
 * {@code raw-pop.lua} (store queue to prepare queue, the due members removed by rank), then acks the batch with one multi-member
 * {@code ZREM} from the prepare queue, and goes on to its next slot until all of its slots are empty.</li>
 * <li><b>Send and consume at once</b> ({@link #sendWhileConsuming}): the same consumer threads popping while a send
 * runs, each going round its slots until every message sent was consumed; a thread that found all of its slots
 * empty in a round waits {@value #IDLE_PAUSE_MICROS} µs before the next (it has no wake notices).</li>
 * </ul>
 * Not thread-safe: call it from one thread; it starts and ends its consumer threads itself.
 */
final class RawBaseline implements AutoCloseable {

    /** Commands per pipeline flush of the send. */
    static final int PIPELINE = 16;
    /** The prepare deadline of popped members: far enough to never expire during the phase. */
    private static final long PREPARE_TIMEOUT_MS = 60_000;
    /** How long a consumer thread of {@link #sendWhileConsuming} waits after a round that found its slots empty. */
    static final int IDLE_PAUSE_MICROS = 1_000;

    private final RedisClient client;
    private final String keyPrefix;
    private final String topic;
    private final int slots;
    private final String popSha;

    RawBaseline(String redisUri, String keyPrefix, String topic, int slots) {
        this.client = RedisClient.create(RedisAccess.of(redisUri).redisUri());
        this.keyPrefix = keyPrefix;
        this.topic = topic;
        this.slots = slots;
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            this.popSha = connection.sync().scriptLoad(script());
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw e;
        }
    }

    int slots() {
        return slots;
    }

    /** Store queue of {@code slot}, as the engine names it. */
    String store(int slot) {
        return keyPrefix + topic + "_" + slot;
    }

    /** Prepare queue of {@code slot}, as the engine names it. */
    String prepare(int slot) {
        return "prepare{" + store(slot) + "}";
    }

    /**
     * Sends {@code count} messages of {@code content}, each to its slot ({@code CRC32(content) mod slots}),
     * all due now; returns when Redis answered every {@code ZADD}.
     */
    void send(int count, int window, IntFunction<byte[]> content) throws InterruptedException {
        byte[][] stores = new byte[slots][];
        for (int slot = 0; slot < slots; slot++) {
            stores[slot] = store(slot).getBytes(StandardCharsets.UTF_8);
        }
        SendWindow permits = new SendWindow(window);
        CountDownLatch answered = new CountDownLatch(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            connection.setAutoFlushCommands(false);
            RedisAsyncCommands<byte[], byte[]> redis = connection.async();
            double now = System.currentTimeMillis();
            int unflushed = 0;
            for (int i = 0; i < count; i++) {
                byte[] member = content.apply(i);
                if (!permits.tryAcquire(1, 0, TimeUnit.NANOSECONDS)) {
                    // what waits for an answer must have left first
                    connection.flushCommands();
                    unflushed = 0;
                    permits.acquire(1);
                }
                redis.zadd(stores[SlotRouter.slotOf(member, slots)], now, member).whenComplete((added, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    permits.release(1);
                    answered.countDown();
                });
                if (++unflushed == PIPELINE) {
                    connection.flushCommands();
                    unflushed = 0;
                }
            }
            connection.flushCommands();
            if (!answered.await(60 + count / 1_000, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the baseline's ZADDs were not all answered: " + answered.getCount()
                        + " of " + count + " missing");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a baseline ZADD failed", failure.get());
        }
    }

    /**
     * Sends {@code count} messages of {@code content} as {@link #send} does, but gathered per slot: one
     * {@code ZADD} of {@code members} members whenever a slot has that many (the rest at the end), each
     * flushed at once, with at most {@code window} messages unanswered; returns when Redis answered every one.
     */
    void sendGrouped(int count, int window, int members, IntFunction<byte[]> content) throws InterruptedException {
        int group = Math.max(1, Math.min(members, window));
        byte[][] stores = new byte[slots][];
        List<List<ScoredValue<byte[]>>> pending = new ArrayList<>();
        for (int slot = 0; slot < slots; slot++) {
            stores[slot] = store(slot).getBytes(StandardCharsets.UTF_8);
            pending.add(new ArrayList<>(group));
        }
        SendWindow permits = new SendWindow(window);
        CountDownLatch answered = new CountDownLatch(count);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisAsyncCommands<byte[], byte[]> redis = connection.async();
            double now = System.currentTimeMillis();
            for (int i = 0; i < count; i++) {
                byte[] member = content.apply(i);
                int slot = SlotRouter.slotOf(member, slots);
                List<ScoredValue<byte[]>> gathered = pending.get(slot);
                gathered.add(ScoredValue.just(now, member));
                if (gathered.size() == group) {
                    zadd(redis, stores[slot], gathered, permits, answered, failure);
                    gathered.clear();
                }
            }
            for (int slot = 0; slot < slots; slot++) {
                if (!pending.get(slot).isEmpty()) {
                    zadd(redis, stores[slot], pending.get(slot), permits, answered, failure);
                }
            }
            if (!answered.await(60 + count / 1_000, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the bare client's ZADDs were not all answered: " + answered.getCount()
                        + " of " + count + " messages missing");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a bare client's ZADD failed", failure.get());
        }
    }

    @SuppressWarnings("unchecked")
    private static void zadd(RedisAsyncCommands<byte[], byte[]> redis, byte[] store, List<ScoredValue<byte[]>> members,
            SendWindow permits, CountDownLatch answered, AtomicReference<Throwable> failure) throws InterruptedException {
        int n = members.size();
        permits.acquire(n);
        ScoredValue<byte[]>[] values = members.toArray(ScoredValue[]::new);
        redis.zadd(store, values).whenComplete((added, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
            permits.release(n);
            for (int k = 0; k < n; k++) {
                answered.countDown();
            }
        });
    }

    /**
     * Consumes every message of the topic with {@code threads} threads popping up to {@code batch} members
     * per script call, each batch acked with one {@code ZREM}; returns the messages consumed.
     */
    long consume(int threads, int batch) throws InterruptedException {
        AtomicLong consumed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = startConsumers(threads, "rmq-bench-raw-consumer-", failure,
                own -> consumed.addAndGet(consumeSlots(own, batch)));
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a baseline consumer failed", failure.get());
        }
        return consumed.get();
    }

    /**
     * {@code threads} started threads, each running {@code work} on its share of the slots (slot {@code s} to thread
     * {@code s mod threads}); the first exception any throws goes to {@code failure}.
     */
    private List<Thread> startConsumers(int threads, String name, AtomicReference<Throwable> failure,
            Consumer<List<Integer>> work) {
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Integer> own = new ArrayList<>();
            for (int slot = t; slot < slots; slot += threads) {
                own.add(slot);
            }
            Thread worker = new Thread(() -> {
                try {
                    work.accept(own);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, name + t);
            workers.add(worker);
            worker.start();
        }
        return workers;
    }

    /** A send of the bare client, run by {@link #sendWhileConsuming} on its calling thread. */
    interface Send {
        void run() throws InterruptedException;
    }

    /**
     * Runs {@code send} of {@code count} messages on the calling thread while {@code threads} threads consume them,
     * popping up to {@code batch} members per script call, each batch acked with one {@code ZREM}; returns when
     * {@code count} messages were consumed, with the messages consumed.
     */
    long sendWhileConsuming(int threads, int batch, long count, Send send) throws InterruptedException {
        AtomicLong consumed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + count / 1_000);
        List<Thread> workers = startConsumers(threads, "rmq-bench-raw-at-once-", failure,
                own -> consumeUntil(own, batch, consumed, count, failure, deadline));
        try {
            send.run();
        } catch (InterruptedException | RuntimeException e) {
            failure.compareAndSet(null, e);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the bare client's send and consume at once failed", failure.get());
        }
        if (consumed.get() < count) {
            throw new IllegalStateException("the bare client consumed " + consumed.get() + " of " + count
                    + " messages sent while it consumed, in " + (60 + count / 1_000) + " s");
        }
        return consumed.get();
    }

    /**
     * Pops from each of {@code own} in turn until {@code total} reaches {@code count} (or a thread failed, or the
     * deadline passed), waiting {@value #IDLE_PAUSE_MICROS} µs after a round that found every slot empty.
     */
    private void consumeUntil(List<Integer> own, int batch, AtomicLong total, long count,
            AtomicReference<Throwable> failure, long deadline) {
        List<byte[][]> keys = slotKeys(own);
        byte[] limit = Integer.toString(batch).getBytes(StandardCharsets.US_ASCII);
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> redis = connection.sync();
            while (total.get() < count && failure.get() == null && System.nanoTime() - deadline < 0) {
                boolean found = false;
                for (byte[][] slotKeys : keys) {
                    int popped = popAndAck(redis, slotKeys, limit);
                    if (popped > 0) {
                        total.addAndGet(popped);
                        found = true;
                    }
                }
                if (!found) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(IDLE_PAUSE_MICROS));
                }
            }
        }
    }

    /** Pops from each of {@code own} in turn, until each is empty; returns the messages consumed. */
    private long consumeSlots(List<Integer> own, int batch) {
        List<byte[][]> keys = slotKeys(own);
        byte[] limit = Integer.toString(batch).getBytes(StandardCharsets.US_ASCII);
        long consumed = 0;
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> redis = connection.sync();
            int next = 0;
            while (!keys.isEmpty()) {
                next %= keys.size();
                int popped = popAndAck(redis, keys.get(next), limit);
                if (popped == 0) {
                    keys.remove(next);
                    continue;
                }
                consumed += popped;
                next++;
            }
        }
        return consumed;
    }

    /** The store and prepare queue names of each of {@code own}, as bytes. */
    private List<byte[][]> slotKeys(List<Integer> own) {
        List<byte[][]> keys = new ArrayList<>();
        for (int slot : own) {
            keys.add(new byte[][] {store(slot).getBytes(StandardCharsets.UTF_8),
                    prepare(slot).getBytes(StandardCharsets.UTF_8)});
        }
        return keys;
    }

    /** One pop of up to {@code limit} due members of a slot, then their ack ({@code ZREM}); returns how many. */
    private int popAndAck(RedisCommands<byte[], byte[]> redis, byte[][] slotKeys, byte[] limit) {
        long now = System.currentTimeMillis();
        List<Object> popped = redis.evalsha(popSha, ScriptOutputType.MULTI, slotKeys,
                Long.toString(now).getBytes(StandardCharsets.US_ASCII),
                Long.toString(now + PREPARE_TIMEOUT_MS).getBytes(StandardCharsets.US_ASCII), limit);
        if (!popped.isEmpty()) {
            redis.zrem(slotKeys[1], popped.stream().map(m -> (byte[]) m).toArray(byte[][]::new));
        }
        return popped.size();
    }

    private static String script() {
        try (InputStream in = RawBaseline.class.getResourceAsStream("raw-pop.lua")) {
            if (in == null) {
                throw new IllegalStateException("raw-pop.lua is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
