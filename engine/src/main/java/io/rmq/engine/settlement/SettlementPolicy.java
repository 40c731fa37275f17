package io.rmq.engine.settlement;

import java.time.Duration;
import java.util.Objects;

import io.rmq.engine.scripts.TopicScripts.RetryRule;

/**
 * What settling a consumer's deliveries follows, taken from its options: how a rolled-back member is retried,
 * and how long a popped member stays in the prepare queue before it is rolled back. Immutable.
 *
 * @param retryRule      how a rolled-back member is retried or moved to the dead queue
 * @param prepareTimeout how long a popped member may wait for its settlement
 * @param traced         whether deliveries carry trace entries, given back by rollbacks and releases
 * @param traceLinks     the most send contexts an entry given back keeps
 */
public record SettlementPolicy(RetryRule retryRule, Duration prepareTimeout, boolean traced, int traceLinks) {

    public SettlementPolicy {
        Objects.requireNonNull(retryRule, "retryRule");
        Objects.requireNonNull(prepareTimeout, "prepareTimeout");
    }

    /** A policy without tracing. */
    public SettlementPolicy(RetryRule retryRule, Duration prepareTimeout) {
        this(retryRule, prepareTimeout, false, 0);
    }
}
