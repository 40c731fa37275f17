package io.rmq.engine.redis;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rmq.engine.i18n.EngineLogging;

/**
 * Reads Redis's {@code maxmemory-policy} once, at the first connection, and warns (RMQ-0142) when
 * Redis may evict the connector's keys: an evicted slot is lost messages. The connector's keys have
 * no TTL, so {@code noeviction} and the {@code volatile-*} policies are safe; the {@code allkeys-*}
 * policies are not. A user that may not run {@code CONFIG GET} gets one line saying the check could
 * not run (RMQ-0143), never a failure.
 *
 * <p>Called on Lettuce's thread by {@link RmqClient}; does not block. Thread-safe.
 */
public final class EvictionPolicyCheck implements RmqClient.Listener {

    static final String SETTING = "maxmemory-policy";

    private final RmqClient client;
    private final AtomicBoolean done = new AtomicBoolean();

    public EvictionPolicyCheck(RmqClient client) {
        this.client = client;
    }

    @Override
    public void connected(boolean first) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        try {
            client.scripts().commands().configGet(SETTING).whenComplete((values, failure) -> {
                if (failure != null) {
                    EngineLogging.log.evictionPolicyNotChecked(client.displayUri(), RmqClient.rootMessage(failure));
                } else {
                    report(values);
                }
            });
        } catch (RuntimeException e) {
            EngineLogging.log.evictionPolicyNotChecked(client.displayUri(), RmqClient.rootMessage(e));
        }
    }

    private void report(Map<String, String> values) {
        String policy = values == null ? null : values.get(SETTING);
        if (policy == null) {
            EngineLogging.log.evictionPolicyNotChecked(client.displayUri(), "CONFIG GET returned no " + SETTING);
        } else if (isSafe(policy)) {
            EngineLogging.log.evictionPolicySafe(client.displayUri(), policy);
        } else {
            EngineLogging.log.evictionPolicyUnsafe(client.displayUri(), policy);
        }
    }

    /** Whether a policy leaves keys without a TTL alone: {@code noeviction} and {@code volatile-*}. */
    static boolean isSafe(String policy) {
        String p = policy.toLowerCase(Locale.ROOT);
        return p.equals("noeviction") || p.startsWith("volatile-");
    }

    @Override
    public void message(String channel, String message) {
    }
}
