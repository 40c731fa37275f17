package io.rmq.engine.admin;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;

/**
 * The flow settings of one topic, for an operator: read them, and change them live, cluster-wide, without a
 * restart (limits, per-key limits, fair share and weights, priority aging, adaptive slow-down). A change stands
 * until changed again, also across restarts of applications whose configuration (the starting value) stays the
 * same; each change steps the topic's configuration generation once. Obtained from {@link RmqAdmin#flow}; calls
 * block for at most {@link RmqAdmin#DEFAULT_TIMEOUT}. Thread-safe.
 */
public final class TopicFlow {

    private final TopicDefinition topic;
    private final AdminCalls calls;
    private final AdminScripts scripts;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;

    TopicFlow(TopicDefinition topic, AdminCalls calls, AdminScripts scripts,
            RedisClusterAsyncCommands<byte[], byte[]> commands) {
        this.topic = topic;
        this.calls = calls;
        this.scripts = scripts;
        this.commands = commands;
    }

    /** The topic. */
    public TopicDefinition topic() {
        return topic;
    }

    /** The settings in force and the adaptive slow-down's state, as the topic's flow hash holds them now. */
    public TopicFlowSettings settings() {
        Map<byte[], byte[]> hash = calls.await("Reading the flow settings of topic '" + topic.name() + "'",
                commands.hgetall(new TopicKeys(topic).flow().getBytes(StandardCharsets.UTF_8)));
        Map<String, String> fields = new LinkedHashMap<>();
        hash.forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        return TopicFlowSettings.of(fields);
    }

    /**
     * Applies {@code update} at once: every setting it names, or none when one is refused.
     *
     * @return the configuration generation after the change (unchanged when every value was already in force)
     * @throws IllegalArgumentException when the update names nothing (RMQ-0680), gives the aging epoch another value
     *                                  than the recorded one (RMQ-0678), or Redis refuses a value (RMQ-0679)
     */
    public long apply(FlowUpdate update) {
        if (update.isEmpty()) {
            throw EngineExceptions.ex.emptyFlowChange(topic.name());
        }
        String epoch = update.fields().get(FlowField.AGING_EPOCH);
        if (epoch != null) {
            String recorded = settings().fields().get(FlowField.AGING_EPOCH);
            if (recorded != null && !recorded.equals(epoch)) {
                throw EngineExceptions.ex.agingEpochSetOnce(topic.name(), recorded, epoch);
            }
        }
        try {
            return calls.await("Changing the flow settings of topic '" + topic.name() + "'",
                    scripts.flowSet(update.fields()));
        } catch (RuntimeException e) {
            throw refusal(e);
        }
    }

    /** The topic limit: {@code perSecond} messages per second, {@code burst} at once (0: a tenth of a second's worth). */
    public long setRate(double perSecond, int burst) {
        return change(b -> b.rate(perSecond, burst));
    }

    /** No topic limit. */
    public long removeRate() {
        return change(FlowUpdate.Builder::removeRate);
    }

    /**
     * Per-key limits: at most {@code concurrency} messages of one key consumed at once (0: none), and at most
     * {@code perSecond} messages of one key per second (0: none) with a burst of {@code burst} (0: the default).
     */
    public long setKeyLimits(int concurrency, double perSecond, int burst) {
        return change(b -> {
            if (concurrency > 0) {
                b.keyConcurrency(concurrency);
            } else {
                b.removeKeyConcurrency();
            }
            return perSecond > 0 ? b.keyRate(perSecond, burst) : b.removeKeyRate();
        });
    }

    /** No per-key limits. */
    public long removeKeyLimits() {
        return change(b -> b.removeKeyConcurrency().removeKeyRate());
    }

    /** Fair share between tenants on or off. */
    public long setFair(boolean on) {
        return change(b -> b.fair(on));
    }

    /** {@code tenant}'s weight in fair share (above 0). */
    public long setWeight(String tenant, double weight) {
        return change(b -> b.weight(tenant, weight));
    }

    /** {@code tenant} falls back to the default weight. */
    public long removeWeight(String tenant) {
        return change(b -> b.removeWeight(tenant));
    }

    /** The weight of tenants without one of their own (above 0). */
    public long setDefaultWeight(double weight) {
        return change(b -> b.defaultWeight(weight));
    }

    /** Tenants without a weight of their own weigh 1. */
    public long removeDefaultWeight() {
        return change(FlowUpdate.Builder::removeDefaultWeight);
    }

    /**
     * Priority aging: a waiting message gains {@code pointsPerMilli} priority points per millisecond (the epoch is
     * recorded the first time).
     */
    public long setAgingPace(double pointsPerMilli) {
        return change(b -> b.agingPace(pointsPerMilli));
    }

    /** No priority aging. */
    public long removeAging() {
        return change(FlowUpdate.Builder::removeAging);
    }

    /** Adaptive slow-down on or off, keeping its threshold and floor. */
    public long setAdaptive(boolean on) {
        return change(b -> b.adaptive(on));
    }

    /**
     * Adaptive slow-down on, slowing down when more than {@code threshold} of the outcomes fail (above 0, below 1),
     * never below {@code floor} messages per second (above 0).
     */
    public long setAdaptive(double threshold, double floor) {
        return change(b -> b.adaptive(true).adaptiveThreshold(threshold).adaptiveFloor(floor));
    }

    /** The script's refusal of a value ({@code flow_set.lua}'s errors, see lib/errors.lua) as RMQ-0679, else {@code e}. */
    private RuntimeException refusal(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && (message.startsWith("RMQ_BAD_VALUE ") || message.startsWith("RMQ_BAD_SELECTION "))) {
                return EngineExceptions.ex.flowChangeRefused(topic.name(), message.substring(message.indexOf(' ') + 1));
            }
        }
        return e;
    }

    private long change(UnaryOperator<FlowUpdate.Builder> settings) {
        return apply(settings.apply(FlowUpdate.builder()).build());
    }
}
