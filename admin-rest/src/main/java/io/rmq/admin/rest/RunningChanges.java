package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.rmq.engine.admin.AdminProgress;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The requeues and purges under way through the endpoints, audited as they start and end, each listed with
 * who started it and how far it has got, so that an operator can stop one ({@code GET admin/operations},
 * {@code POST admin/operations/{id}/cancel}). The application's stop stops them all: each ends after its
 * current script call and is audited with what it moved. Thread-safe.
 */
@ApplicationScoped
public class RunningChanges {

    private final Map<String, Running> running = new ConcurrentHashMap<>();

    /** One change under way; {@code progress} counts what it moved and stops it. */
    record Running(String id, String user, String action, String topic, String what, Instant startedAt,
            AdminProgress progress) {
    }

    /**
     * A change that takes a while, in words for the audit trail: {@code starting} ("requeuing dead messages"),
     * {@code done} ("requeued dead messages"), on {@code topic}, {@code what} (the selection, the rate).
     */
    record Change(String starting, String done, TopicDefinition topic, String what) {
    }

    /** The work of a {@link Change}: counts what it moves in the progress it is given and stops when that is stopped. */
    interface Work {
        long run(AdminProgress progress);
    }

    /**
     * Runs {@code work} for {@code user}, listed here while it runs, audited when it starts (RMQ-0955) and when it
     * ends (RMQ-0951), or when it is stopped or fails (RMQ-0956), with the messages it moved.
     *
     * @return what {@code work} returns: how many messages it moved
     */
    long run(String user, Change change, Work work) {
        String topic = change.topic().name();
        log.started(user, change.starting(), topic, change.what());
        Running entry = new Running(UUID.randomUUID().toString(), user, change.starting(), topic, change.what(), Instant.now(),
                new AdminProgress());
        running.put(entry.id(), entry);
        try {
            long count = work.run(entry.progress());
            if (entry.progress().stopped()) {
                log.changeFailed(user, change.starting(), topic, count + " moved (" + change.what() + ")", "cancelled");
            } else {
                log.changed(user, change.done(), topic, count + " (" + change.what() + ")");
            }
            return count;
        } catch (RuntimeException | Error e) {
            log.changeFailed(user, change.starting(), topic, entry.progress().acted() + " moved (" + change.what() + ")",
                    String.valueOf(e.getMessage()));
            throw e;
        } finally {
            running.remove(entry.id());
        }
    }

    /** The changes under way, oldest first. */
    List<Running> list() {
        return running.values().stream().sorted(Comparator.comparing(Running::startedAt)).toList();
    }

    /** Asks the change {@code id} to stop; empty when none is under way with that id. */
    Optional<Running> cancel(String id) {
        Optional<Running> change = Optional.ofNullable(running.get(id));
        change.ifPresent(c -> c.progress().stop());
        return change;
    }

    @PreDestroy
    void stopAll() {
        running.values().forEach(c -> c.progress().stop());
    }
}
