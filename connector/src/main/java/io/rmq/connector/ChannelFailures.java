package io.rmq.connector;

import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import io.rmq.connector.config.FailureStrategy;
import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.settlement.Delivery;

/**
 * An incoming channel's failure strategy ({@code failure-strategy}) applied to one failed delivery: nacked by the
 * application, or content that cannot become a payload. Immutable; thread-safe.
 */
final class ChannelFailures {

    private final String channel;
    private final String topic;
    private final FailureStrategy strategy;
    private final Consumer<Throwable> failChannel;

    /**
     * @param failChannel fails the channel for good (strategy {@code fail}); called after the message's rollback
     *                    was sent, so the channel's close sees the message settled
     */
    ChannelFailures(String channel, String topic, FailureStrategy strategy, Consumer<Throwable> failChannel) {
        this.channel = channel;
        this.topic = topic;
        this.strategy = strategy;
        this.failChannel = failChannel;
    }

    /** The outcome a failed delivery's process span records: the strategy's name ({@code retry}, ...). */
    String outcome() {
        return strategy.attributeValue();
    }

    /** Settles a failed delivery as the strategy says; completes when Redis has done so. */
    CompletionStage<Void> failed(Delivery delivery, Throwable reason) {
        return switch (strategy) {
            case RETRY -> delivery.rollback(reason);
            case DEAD_LETTER -> delivery.deadLetter(reason);
            case IGNORE -> {
                RmqLogging.log.failureIgnored(channel, topic, delivery.slot(), delivery.attempt(), reason);
                yield delivery.commit();
            }
            case FAIL -> {
                CompletionStage<Void> rolledBack = delivery.rollback(reason);
                failChannel.accept(RmqExceptions.ex.channelFailedByStrategy(channel, topic, reason));
                yield rolledBack;
            }
        };
    }
}
