package io.rmq.engine.settlement;

import io.rmq.engine.topic.TopicDefinition;

/**
 * What an engine tells about the messages of its topics beyond what a single consumer sees: for
 * metrics and alerts. Every method has an empty default; implement those you need.
 *
 * <p>Called on the engine's housekeeping thread or on Lettuce's threads, without locks held; a
 * listener must return quickly and not throw (what it throws is ignored).
 */
public interface EngineEvents {

    /** {@code count} messages of {@code topic} moved to the dead queue (a last failed delivery, or expired). */
    default void deadLettered(TopicDefinition topic, long count) {
    }

    /** {@code count} messages of {@code topic} were rolled back at their prepare deadline, to be delivered again. */
    default void redelivered(TopicDefinition topic, long count) {
    }

    /**
     * {@code count} messages of {@code topic} expired before they were delivered and were removed (found by a pop or
     * by the periodic cleanup; kept in the dead queue too when the consumer asks for it, also told by
     * {@link #deadLettered}).
     */
    default void expired(TopicDefinition topic, long count) {
    }

    /** The dead-queue retention deleted {@code count} messages of {@code topic}. */
    default void deadTrimmed(TopicDefinition topic, long count) {
    }

    /** An operator requeued {@code count} dead messages of {@code topic} (told by the admin tools, not the engine). */
    default void requeued(TopicDefinition topic, long count) {
    }
}
