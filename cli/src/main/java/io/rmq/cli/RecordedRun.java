package io.rmq.cli;

import java.time.Instant;
import java.util.UUID;
import java.util.function.ToLongFunction;

import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.admin.RecordedOperation;
import io.rmq.engine.admin.RmqAdmin;

/**
 * Runs a requeue or purge of the tool recorded in Redis ({@link RmqAdmin#recordOperation}), so that
 * {@code operations list} and the admin endpoints of any instance list it, and {@code operations cancel} stops it.
 * Its user is {@code cli:<the user's login>}. Stateless.
 */
final class RecordedRun {

    private RecordedRun() {
    }

    /** Runs {@code work} ({@code action} on {@code topic}, {@code what} its selection) recorded; what it returns. */
    static long run(RmqAdmin admin, String keyPrefix, String action, String topic, String what,
            ToLongFunction<AdminProgress> work) {
        AdminProgress progress = new AdminProgress();
        AdminOperation operation = new AdminOperation(UUID.randomUUID().toString(), "cli:" + System.getProperty("user.name", "?"),
                action, topic, what, Instant.now(), 0, false);
        try (RecordedOperation recorded = admin.recordOperation(keyPrefix, operation, progress)) {
            return work.applyAsLong(progress);
        }
    }
}
