package io.rmq.engine.pending;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.ToIntFunction;

import io.lettuce.core.RedisCommandExecutionException;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.redis.RmqClient;
import io.rmq.engine.redis.WrongKeyTypeException;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * What an application can do to the messages of one topic after sending them: {@link #cancel} a pending message,
 * {@link #find} what Redis holds about one, {@link #reschedule} a timed one or {@link #reprioritize} a PRIORITY one.
 * A message is its content (its encoded bytes, as the producer sent them) within its slot, which its slot basis
 * chooses as for the send ({@code null}: the content). Each operation is one script on the message's own slot
 * ({@code cancel.lua}, {@code find.lua}, {@code reschedule.lua}), so it is atomic with the consumers' pops and
 * safe on a Redis Cluster; cancel and reschedule count {@code cancelled} and {@code rescheduled} in the slot's
 * counters hash.
 *
 * <p><b>Growth</b> (see {@code docs/topic-growth.md}): the slot is found from the topic's definition as the
 * producer routes a send, and each script also says whether the slot was split since; the call then goes on to
 * the slot the message routes to after the growth, since its copies may lie in either (an old slot keeps what it
 * held when it was split). Each slot's step is atomic; across the two slots of a growth the outcome adds up
 * (cancelled in either, in flight in either).
 *
 * <p>Every method completes its stage exceptionally with a {@link PendingOperationException} when Redis fails
 * (RMQ-0500: nothing was changed; RMQ-0501: the reply was lost). Thread-safe; holds nothing of its own.
 */
public final class PendingMessages {

    private final TopicScripts scripts;
    private final TopicKeys keys;
    private final TopicDefinition topic;

    public PendingMessages(TopicScripts scripts) {
        this.scripts = scripts;
        this.keys = scripts.keys();
        this.topic = keys.topic();
    }

    public TopicDefinition topic() {
        return topic;
    }

    /**
     * The topic's priority aging ({@link PriorityAging#OFF}: none): with aging on, {@link #find} reports the
     * priority {@code score + k * (since - E0)} beside the aged score, and {@link #cancel} forgets the cancelled
     * message's first send time. Settings without an epoch take the topic's; the stage completes with those in force.
     */
    public CompletionStage<PriorityAging> updatePriorityAging(PriorityAging aging) {
        return scripts.applyPriorityAging(aging);
    }

    /**
     * Removes the message if it is pending. A copy that is being consumed is not cancelled: the outcome says so
     * ({@link CancelOutcome#IN_FLIGHT}, or {@link Cancellation#inFlight()} beside a cancelled pending copy).
     */
    public CompletionStage<Cancellation> cancel(byte[] content, String slotBasis) {
        return cancel(content, slotBasis, null);
    }

    /**
     * {@link #cancel(byte[], String)} for a message sent with {@code tenant} (fair share; it waits in its tenant's
     * queue); {@code null}: sent without one.
     */
    public CompletionStage<Cancellation> cancel(byte[] content, String slotBasis, String tenant) {
        Objects.requireNonNull(content, "content");
        return walk("cancel", content, slotBasis, (slot, markers) -> scripts.cancel(slot, content, markers, tenant),
                TopicScripts.CancelReply::splits)
                .thenApply(replies -> new Cancellation(replies.stream().anyMatch(TopicScripts.CancelReply::cancelled),
                        replies.stream().anyMatch(TopicScripts.CancelReply::inFlight)));
    }

    /** What Redis holds about the message: pending or in flight, its due time or priority, attempts, death, expiry. */
    public CompletionStage<MessageState> find(byte[] content, String slotBasis) {
        return find(content, slotBasis, null);
    }

    /**
     * {@link #find(byte[], String)} for a message sent with {@code tenant} (fair share; it waits in its tenant's queue);
     * {@code null}: sent without one.
     */
    public CompletionStage<MessageState> find(byte[] content, String slotBasis, String tenant) {
        Objects.requireNonNull(content, "content");
        return walk("find", content, slotBasis, (slot, markers) -> scripts.find(slot, content, markers, tenant),
                TopicScripts.FindReply::splits).thenApply(this::state);
    }

    /**
     * Sets the due time of a pending RANGE_MERGE or FIXED_TIME message, whatever the topic's merge rule (a time
     * in the past: due at once); a consumer sleeping until a later time is woken. A copy in flight is not changed.
     *
     * @throws IllegalArgumentException RMQ-0502 on a PRIORITY topic
     */
    public CompletionStage<Rescheduling> reschedule(byte[] content, String slotBasis, Instant dueAt) {
        return reschedule(content, slotBasis, dueAt, null);
    }

    /** {@link #reschedule(byte[], String, Instant)} for a message sent with {@code tenant} ({@code null}: none). */
    public CompletionStage<Rescheduling> reschedule(byte[] content, String slotBasis, Instant dueAt, String tenant) {
        if (topic.type() == TopicType.PRIORITY) {
            throw EngineExceptions.ex.wrongTypeForPendingChange(topic.name(), topic.type().name(), "reschedule",
                    "reprioritize");
        }
        if (dueAt == null) {
            return CompletableFuture.failedFuture(EngineExceptions.ex.missingDueTime(topic.name()));
        }
        return change("reschedule", content, slotBasis, Long.toString(dueAt.toEpochMilli()), tenant);
    }

    /**
     * Sets the priority of a pending PRIORITY message, whatever the topic's merge rule. A copy in flight is not
     * changed.
     *
     * @throws IllegalArgumentException RMQ-0502 on a timed topic
     */
    public CompletionStage<Rescheduling> reprioritize(byte[] content, String slotBasis, double priority) {
        return reprioritize(content, slotBasis, priority, null);
    }

    /** {@link #reprioritize(byte[], String, double)} for a message sent with {@code tenant} ({@code null}: none). */
    public CompletionStage<Rescheduling> reprioritize(byte[] content, String slotBasis, double priority, String tenant) {
        if (topic.type() != TopicType.PRIORITY) {
            throw EngineExceptions.ex.wrongTypeForPendingChange(topic.name(), topic.type().name(), "reprioritize",
                    "reschedule");
        }
        if (!Double.isFinite(priority)) {
            return CompletableFuture.failedFuture(EngineExceptions.ex.badNewPriority(topic.name(), priority));
        }
        return change("reprioritize", content, slotBasis, Double.toString(priority), tenant);
    }

    private CompletionStage<Rescheduling> change(String operation, byte[] content, String slotBasis, String score,
            String tenant) {
        Objects.requireNonNull(content, "content");
        return walk(operation, content, slotBasis,
                (slot, markers) -> scripts.reschedule(slot, content, score, markers, tenant),
                TopicScripts.RescheduleReply::splits)
                .thenApply(replies -> new Rescheduling(
                        replies.stream().anyMatch(TopicScripts.RescheduleReply::rescheduled),
                        replies.stream().anyMatch(TopicScripts.RescheduleReply::inFlight)));
    }

    /** The state the slots' replies add up to: the first slot that holds a copy tells its score. */
    private MessageState state(List<TopicScripts.FindReply> replies) {
        Double score = null;
        Long sentAt = null;
        boolean inFlight = false;
        int attempts = 0;
        Long deadAt = null;
        Long expiresAt = null;
        for (TopicScripts.FindReply r : replies) {
            if (score == null && r.pendingScore() != null) {
                score = r.pendingScore();
                sentAt = r.sentAt();
            }
            inFlight |= r.inFlightDeadline() != null;
            attempts = Math.max(attempts, r.attempts());
            deadAt = deadAt != null ? deadAt : r.deadAt();
            expiresAt = expiresAt != null ? expiresAt : r.expiresAt();
        }
        boolean timed = topic.type() != TopicType.PRIORITY;
        PriorityAging aging = scripts.priorityAging();
        boolean aged = !timed && aging.on() && score != null;
        return new MessageState(score != null, inFlight,
                score != null && timed ? Instant.ofEpochMilli(score.longValue()) : null,
                timed || score == null ? null : aged ? aging.priority(score, sentAt) : score, attempts, instant(deadAt),
                instant(expiresAt), aged ? score : null);
    }

    private static Instant instant(Long millis) {
        return millis == null ? null : Instant.ofEpochMilli(millis);
    }

    /** One script call on a slot, given the split markers to look for there. */
    private interface SlotCall<R> {
        CompletionStage<R> run(int slot, List<String> markers);
    }

    /**
     * Runs {@code call} on the message's slot under the topic's definition, then, as long as the reply says the
     * slot was split, on the slot the message routes to after those doublings; the replies in that order.
     */
    private <R> CompletionStage<List<R>> walk(String operation, byte[] content, String slotBasis, SlotCall<R> call,
            ToIntFunction<R> splits) {
        long crc = SlotRouter.crc(slotBasis, content);
        int amount = topic.slotAmount();
        CompletableFuture<List<R>> result = new CompletableFuture<>();
        visit(crc, amount, (int) (crc % amount), call, splits, new ArrayList<>(2)).whenComplete((replies, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failed(operation, failure));
            } else {
                result.complete(replies);
            }
        });
        return result;
    }

    private <R> CompletionStage<List<R>> visit(long crc, int amount, int slot, SlotCall<R> call,
            ToIntFunction<R> splits, List<R> replies) {
        return call.run(slot, markers(crc, amount, slot)).thenCompose(reply -> {
            replies.add(reply);
            int reached = amount << splits.applyAsInt(reply);
            int next = (int) (crc % reached);
            if (next == slot) {
                return CompletableFuture.completedFuture(replies);
            }
            return visit(crc, reached, next, call, splits, replies);
        });
    }

    /**
     * The split markers of {@code slot} (routed by {@code amount}) for each doubling after which the message still
     * routes to it, and for the first one after which it does not: a script counts how many exist in a row.
     */
    private List<String> markers(long crc, int amount, int slot) {
        List<String> markers = new ArrayList<>(2);
        for (long target = 2L * amount; target <= TopicDefinition.MAX_SLOT_AMOUNT; target *= 2) {
            markers.add(keys.splitMarker(slot, (int) target));
            if (crc % target != slot) {
                break;
            }
        }
        return markers;
    }

    private PendingOperationException failed(String operation, Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        boolean refused = t instanceof RedisUnavailableException || t instanceof RedisCommandExecutionException
                || t instanceof WrongKeyTypeException;
        boolean maybeDone = !refused && !"find".equals(operation);
        String reason = RmqClient.rootMessage(t);
        String message = maybeDone ? EngineExceptions.ex.pendingOperationReplyLost(operation, topic.name(), reason)
                : EngineExceptions.ex.pendingOperationNotDone(operation, topic.name(), reason);
        return new PendingOperationException(message, topic.name(), maybeDone, t);
    }
}
