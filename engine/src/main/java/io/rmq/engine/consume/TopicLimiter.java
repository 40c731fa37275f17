package io.rmq.engine.consume;

import java.math.BigDecimal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.rmq.engine.consume.flow.AdaptiveSlowDown;
import io.rmq.engine.consume.flow.FlowGate;
import io.rmq.engine.consume.flow.FlowSettingsCache;
import io.rmq.engine.consume.flow.FlowLimit;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.scripts.TopicScripts.FlowGrant;
import io.rmq.engine.settlement.Settlement;

/**
 * A consumer's way to its topic's limiter: writes the configured limit (if any: {@code limit} may be {@code null}) as
 * the starting value
 * ({@code flow_set.lua} in config mode, warning when it replaces another application's configuration), and
 * reserves permits ({@code flow_acquire.lua}), reporting the deliveries settled since its previous reservation for the
 * adaptive slow-down (with this consumer's settings of it, if configured). Thread-safe.
 */
final class TopicLimiter implements FlowGate.Limiter {

    private final TopicScripts scripts;
    private final FlowLimit limit;
    private final String consumer;
    private final AdaptiveSlowDown adaptive;
    private final Settlement settlement;
    private final FlowSettingsCache flow;

    TopicLimiter(TopicScripts scripts, FlowLimit limit, AdaptiveSlowDown adaptive, String consumer,
            Settlement settlement, FlowSettingsCache flow) {
        this.scripts = scripts;
        this.limit = limit;
        this.adaptive = adaptive;
        this.consumer = consumer;
        this.settlement = settlement;
        this.flow = flow;
    }

    @Override
    public CompletionStage<?> configure() {
        if (limit == null) {
            return CompletableFuture.completedFuture(null);
        }
        return scripts.flowSet(false, limit.perSecond(), limit.burst()).thenAccept(reply -> {
            if (reply.changed() && !reply.previousRate().isEmpty()) {
                EngineLogging.log.flowConfigReplaced(scripts.keys().topic().name(), consumer,
                        BigDecimal.valueOf(limit.perSecond()).stripTrailingZeros().toPlainString(), limit.burst(),
                        reply.previousRate(), reply.previousBurst());
            }
        });
    }

    @Override
    public CompletionStage<FlowGrant> acquire(int permits, int refund, long refundGen) {
        Settlement.Outcomes outcomes = settlement.takeOutcomes();
        long failed = outcomes.failed() + flow.takeDeadlinesPassed();
        return adaptive == null
                ? scripts.flowAcquire(permits, refund, refundGen, outcomes.acked(), failed, -1, 0)
                : scripts.flowAcquire(permits, refund, refundGen, outcomes.acked(), failed, adaptive.failureThreshold(),
                        adaptive.floor());
    }
}
