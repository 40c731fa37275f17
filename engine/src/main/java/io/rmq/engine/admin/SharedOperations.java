package io.rmq.engine.admin;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.topic.TopicKeys;

/**
 * The requeues and purges under way on the topics of a key prefix, recorded in Redis so that every admin (the
 * REST endpoints of any instance, the dashboard, the command-line tool) lists and cancels them, whichever process
 * runs them. One hash per key prefix, {@code {<prefix>rmq:topics}operations}: field {@code <id>} holds an
 * operation's description and progress, field {@code <id>:cancel} is set to ask it to stop. Each operation
 * refreshes its record and reads its cancel flag at most every {@link #HEARTBEAT}, between its script calls, and
 * keeps a key {@code {<prefix>rmq:topics}operation:<id>} alive for {@link #ALIVE_FOR}: the record of a process
 * that died without removing it is dropped by the next listing once that key has expired. Plain commands on keys
 * of one hash tag (Cluster-safe). Thread-safe.
 */
final class SharedOperations {

    /** How often a running operation refreshes its record and reads its cancel flag, at most. */
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    /** How long a record outlives its operation's last heartbeat when its process died. */
    static final Duration ALIVE_FOR = Duration.ofSeconds(30);
    private static final String CANCEL = ":cancel";

    private final AdminCalls calls;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;

    SharedOperations(AdminCalls calls, RedisClusterAsyncCommands<byte[], byte[]> commands) {
        this.calls = calls;
        this.commands = commands;
    }

    /** The hash of the operations under way on the topics of {@code keyPrefix}. */
    static String key(String keyPrefix) {
        return TopicKeys.operationsKey(keyPrefix);
    }

    private static String aliveKey(String keyPrefix, String id) {
        return TopicKeys.operationAliveKey(keyPrefix, id);
    }

    /**
     * Records {@code operation} (its {@code acted} and {@code stopping} are read from {@code progress}) and makes
     * {@code progress} refresh it and stop when it is cancelled; closing the result removes the record.
     */
    Recorded record(String keyPrefix, AdminOperation operation, AdminProgress progress) {
        Recorded recorded = new Recorded(keyPrefix, operation, progress);
        recorded.heartbeat();
        progress.stopWhen(recorded::cancelled);
        return recorded;
    }

    /** The operations under way, oldest first; drops the records of processes that died. */
    List<AdminOperation> list(String keyPrefix) {
        byte[] hash = bytes(key(keyPrefix));
        Map<byte[], byte[]> fields = calls.await("Listing the admin operations", commands.hgetall(hash));
        Map<String, String> byName = new HashMap<>();
        fields.forEach((k, v) -> byName.put(text(k), text(v)));
        Map<String, CompletionStage<Long>> alive = new HashMap<>();
        byName.keySet().stream().filter(f -> !f.endsWith(CANCEL))
                .forEach(id -> alive.put(id, commands.exists(bytes(aliveKey(keyPrefix, id)))));
        List<AdminOperation> out = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (Map.Entry<String, String> field : byName.entrySet()) {
            String name = field.getKey();
            if (name.endsWith(CANCEL)) {
                if (!byName.containsKey(name.substring(0, name.length() - CANCEL.length()))) {
                    dropped.add(name); // a cancel that came after its operation ended
                }
                continue;
            }
            Optional<AdminOperation> parsed = parse(name, field.getValue(), byName.containsKey(name + CANCEL));
            if (parsed.isPresent() && calls.await("Listing the admin operations", alive.get(name)) > 0) {
                out.add(parsed.get());
            } else {
                dropped.add(name);
                dropped.add(name + CANCEL);
            }
        }
        if (!dropped.isEmpty()) {
            calls.await("Dropping the records of ended admin operations",
                    commands.hdel(hash, dropped.stream().map(SharedOperations::bytes).toArray(byte[][]::new)));
        }
        out.sort(Comparator.comparing(AdminOperation::startedAt).thenComparing(AdminOperation::id));
        return out;
    }

    /** Asks the operation {@code id} to stop, whichever process runs it; empty when none is under way with that id. */
    Optional<AdminOperation> cancel(String keyPrefix, String id) {
        Optional<AdminOperation> found = list(keyPrefix).stream().filter(o -> o.id().equals(id)).findFirst();
        found.ifPresent(o -> calls.await("Cancelling an admin operation",
                commands.hset(bytes(key(keyPrefix)), bytes(id + CANCEL), bytes("1"))));
        return found.map(o -> new AdminOperation(o.id(), o.user(), o.action(), o.topic(), o.what(), o.startedAt(),
                o.acted(), true));
    }

    /** An operation's record, refreshed by its progress; closing removes it. Not thread-safe: the operation's own. */
    final class Recorded implements RecordedOperation {

        private final String keyPrefix;
        private final AdminOperation operation;
        private final AdminProgress progress;
        private long lastBeat;
        private boolean cancelled;

        private Recorded(String keyPrefix, AdminOperation operation, AdminProgress progress) {
            this.keyPrefix = keyPrefix;
            this.operation = operation;
            this.progress = progress;
        }

        /** Whether it was cancelled: read from Redis at most every {@link #HEARTBEAT}, with its record refreshed. */
        boolean cancelled() {
            if (!cancelled && System.nanoTime() - lastBeat >= HEARTBEAT.toNanos()) {
                heartbeat();
            }
            return cancelled;
        }

        private void heartbeat() {
            lastBeat = System.nanoTime();
            String operationName = "Recording admin operation " + operation.id();
            byte[] hash = bytes(key(keyPrefix));
            CompletionStage<Boolean> written = commands.hset(hash, bytes(operation.id()), bytes(format(operation, progress.acted())));
            CompletionStage<String> alive = commands.set(bytes(aliveKey(keyPrefix, operation.id())), bytes("1"),
                    SetArgs.Builder.px(ALIVE_FOR.toMillis()));
            CompletionStage<Boolean> cancel = commands.hexists(hash, bytes(operation.id() + CANCEL));
            calls.await(operationName, written);
            calls.await(operationName, alive);
            cancelled = calls.await(operationName, cancel);
        }

        /**
         * Removes the record. When Redis cannot be reached it is left to expire (its liveness key lapses within
         * {@link #ALIVE_FOR}): the operation has ended either way, and its outcome is its caller's to report.
         */
        @Override
        public void close() {
            String operationName = "Removing the record of admin operation " + operation.id();
            try {
                CompletionStage<Long> fields = commands.hdel(bytes(key(keyPrefix)), bytes(operation.id()),
                        bytes(operation.id() + CANCEL));
                CompletionStage<Long> alive = commands.del(bytes(aliveKey(keyPrefix, operation.id())));
                calls.await(operationName, fields);
                calls.await(operationName, alive);
            } catch (RuntimeException lost) {
                // left to expire, as the class comment says
            }
        }
    }

    /** {@code startedAt acted user action topic what}, the texts URL-encoded. */
    static String format(AdminOperation o, long acted) {
        return o.startedAt().toEpochMilli() + " " + acted + " " + encode(o.user()) + " " + encode(o.action()) + " "
                + encode(o.topic()) + " " + encode(o.what());
    }

    /** The record {@code value} of {@code id}; empty when it is not one this class wrote. */
    static Optional<AdminOperation> parse(String id, String value, boolean stopping) {
        String[] parts = value.split(" ", -1);
        if (parts.length != 6) {
            return Optional.empty();
        }
        try {
            return Optional.of(new AdminOperation(id, decode(parts[2]), decode(parts[3]), decode(parts[4]), decode(parts[5]),
                    Instant.ofEpochMilli(Long.parseLong(parts[0])), Long.parseLong(parts[1]), stopping));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
