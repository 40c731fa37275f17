package io.rmq.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The consumer's side of the scripts for one topic: pop, rollback, release, extend and sweep, with
 * their keys and arguments assembled in one place, plus the reading of the slots' ownership epochs.
 * Stateless apart from the precomputed argument bytes; thread-safe.
 */
final class SlotPopper {

    private static final byte[] MEMBERS = RmqEngine.bytes("members");
    private static final byte[] EXPIRED = RmqEngine.bytes("expired");
    private static final int SWEEP_LIMIT = 256;

    private final RmqEngine client;
    private final TopicKeys keys;
    private final byte[] type;
    private final byte[] prepareTimeout;
    private final byte[] maxRetries;
    private final byte[] backoff;
    private final byte[] backoffMax;
    private final byte[] wakeChannel;

    /** Elements before the popped triples: status, now, next, detail. */
    private static final int HEADER = 4;

    /**
     * What one pop returned.
     *
     * @param detail POPPED: the epoch checked (0 without coordination); HANDOVER: members of earlier
     *               owners still in the prepare queue; FENCED: the epoch the slot is owned under
     */
    record Popped(PopStatus status, long redisNow, long nextDelayMillis, long detail, List<Object> reply) {
        List<Delivery> toDeliveries(TopicConsumer owner, int slot) {
            List<Delivery> out = new ArrayList<>((reply.size() - HEADER) / 3);
            for (int i = HEADER; i + 2 < reply.size(); i += 3) {
                out.add(new Delivery(owner, slot, (byte[]) reply.get(i), (byte[]) reply.get(i + 1),
                        ((Long) reply.get(i + 2)).intValue()));
            }
            return out;
        }
    }

    /** What a rollback or sweep did. */
    record RollbackResult(long requeued, long merged, long dead) {
        long total() {
            return requeued + merged + dead;
        }
    }

    SlotPopper(RmqEngine client, TopicKeys keys, ConsumerOptions options) {
        this.client = client;
        this.keys = keys;
        this.type = RmqEngine.bytes(keys.topic().type().name());
        this.prepareTimeout = number(options.prepareTimeout().toMillis());
        this.maxRetries = number(options.maxRetries());
        this.backoff = number(options.retryBackoff().toMillis());
        this.backoffMax = number(options.retryBackoffMax().toMillis());
        this.wakeChannel = RmqEngine.bytes(keys.wakeChannel());
    }

    /**
     * Pops up to {@code count} members (0: only the ownership step, a claim).
     *
     * @param epoch  the caller's ownership epoch of the slot, 0 without coordination
     * @param worker the caller's worker id, recorded with a new epoch; ignored when epoch is 0
     */
    CompletionStage<Popped> pop(int slot, int count, long epoch, String worker) {
        SlotKeys k = keys.slot(slot);
        return client.scripts().<List<Object>>run(RedisScript.POP,
                keys(k.store(), k.prepare(), k.attempts(), k.origin(), k.owner()), type, number(count), prepareTimeout,
                number(epoch), RmqEngine.bytes(worker == null ? "" : worker))
                .thenApply(reply -> new Popped(PopStatus.of((Long) reply.get(0)), (Long) reply.get(1),
                        (Long) reply.get(2), (Long) reply.get(3), reply));
    }

    /**
     * The highest ownership epoch recorded in the owner hashes of the topic's slots (0 when none),
     * so that epochs handed out by a fresh assignment keep growing.
     */
    CompletionStage<Long> highestEpoch() {
        int slots = keys.topic().slotAmount();
        byte[] field = RmqEngine.bytes("epoch");
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(slots);
        for (int s = 0; s < slots; s++) {
            reads.add(client.commands().hget(RmqEngine.bytes(keys.slot(s).owner()), field).toCompletableFuture());
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(v -> {
            long highest = 0;
            for (CompletableFuture<byte[]> read : reads) {
                byte[] value = read.join();
                if (value != null) {
                    highest = Math.max(highest, Long.parseLong(new String(value, StandardCharsets.US_ASCII)));
                }
            }
            return highest;
        });
    }

    CompletionStage<RollbackResult> rollback(int slot, List<Delivery> deliveries) {
        byte[][] args = new byte[8 + deliveries.size()][];
        fillRollbackArgs(args, slot, MEMBERS);
        for (int i = 0; i < deliveries.size(); i++) {
            args[8 + i] = deliveries.get(i).content();
        }
        return runRollback(slot, args);
    }

    CompletionStage<RollbackResult> sweep(int slot) {
        byte[][] args = new byte[8][];
        fillRollbackArgs(args, slot, EXPIRED);
        return runRollback(slot, args);
    }

    private void fillRollbackArgs(byte[][] args, int slot, byte[] selection) {
        args[0] = type;
        args[1] = maxRetries;
        args[2] = backoff;
        args[3] = backoffMax;
        args[4] = wakeChannel;
        args[5] = number(slot);
        args[6] = selection;
        args[7] = number(SWEEP_LIMIT);
    }

    private CompletionStage<RollbackResult> runRollback(int slot, byte[][] args) {
        SlotKeys k = keys.slot(slot);
        return client.scripts().<List<Object>>run(RedisScript.ROLLBACK,
                keys(k.store(), k.prepare(), k.attempts(), k.origin(), k.dead(), k.owner()), args)
                .thenApply(r -> new RollbackResult((Long) r.get(0), (Long) r.get(1), (Long) r.get(2)));
    }

    CompletionStage<Long> release(int slot, List<Delivery> deliveries) {
        SlotKeys k = keys.slot(slot);
        byte[][] args = new byte[2 + 2 * deliveries.size()][];
        args[0] = wakeChannel;
        args[1] = number(slot);
        for (int i = 0; i < deliveries.size(); i++) {
            args[2 + 2 * i] = deliveries.get(i).content();
            args[3 + 2 * i] = deliveries.get(i).rawScore();
        }
        return client.scripts().run(RedisScript.RELEASE, keys(k.store(), k.prepare(), k.origin()), args);
    }

    CompletionStage<Long> extend(int slot, List<Delivery> deliveries) {
        byte[][] args = new byte[1 + deliveries.size()][];
        args[0] = prepareTimeout;
        for (int i = 0; i < deliveries.size(); i++) {
            args[1 + i] = deliveries.get(i).content();
        }
        return client.scripts().run(RedisScript.EXTEND, keys(keys.slot(slot).prepare()), args);
    }

    private static byte[][] keys(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static byte[] number(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }
}
