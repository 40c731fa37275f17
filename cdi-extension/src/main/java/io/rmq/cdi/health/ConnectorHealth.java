package io.rmq.cdi.health;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.rmq.connector.ChannelSnapshot;
import io.rmq.connector.RedisRmqConnector;

/**
 * What one of the connector's three health checks says about its channels, from their
 * {@link ChannelSnapshot}s: UP when every channel passes the check (and when there is no channel),
 * with one entry per channel. Plain Java, shared by the MicroProfile Health checks and the SmallRye
 * health reporter, so that both report the same. Immutable.
 */
final class ConnectorHealth {

    /** The name of the MicroProfile Health checks. */
    static final String CHECK_NAME = RedisRmqConnector.CONNECTOR_NAME;

    /** The three checks, each with the rule a channel must pass. */
    enum Check {
        /** Every channel connected to Redis, and to ZooKeeper when it coordinates; none failed or stopped. */
        READINESS(ChannelSnapshot::isReady),
        /** No channel failed for good. */
        LIVENESS(ChannelSnapshot::isAlive),
        /** Every channel's Redis client has connected once. */
        STARTUP(ChannelSnapshot::hasStarted);

        private final Predicate<ChannelSnapshot> passes;

        Check(Predicate<ChannelSnapshot> passes) {
            this.passes = passes;
        }
    }

    /**
     * One channel in a check's answer.
     *
     * @param key         the channel's name; with {@code (incoming)} or {@code (outgoing)} appended when an
     *                    incoming and an outgoing channel share the name
     * @param ok          whether the channel passes the check
     * @param description {@link ChannelSnapshot#describe()}: direction, topic, state (and failure)
     */
    record ChannelEntry(String key, boolean ok, String description) {
    }

    private final boolean up;
    private final List<ChannelEntry> channels;

    private ConnectorHealth(boolean up, List<ChannelEntry> channels) {
        this.up = up;
        this.channels = List.copyOf(channels);
    }

    /** The answer of {@code check} for the given channels. */
    static ConnectorHealth evaluate(Check check, List<ChannelSnapshot> snapshots) {
        Set<String> names = new HashSet<>();
        Set<String> shared = new HashSet<>();
        for (ChannelSnapshot s : snapshots) {
            if (!names.add(s.channel())) {
                shared.add(s.channel());
            }
        }
        List<ChannelEntry> entries = new ArrayList<>(snapshots.size());
        boolean up = true;
        for (ChannelSnapshot s : snapshots) {
            boolean ok = check.passes.test(s);
            up &= ok;
            String key = shared.contains(s.channel()) ? s.channel() + " (" + s.direction().label() + ")" : s.channel();
            entries.add(new ChannelEntry(key, ok, s.describe()));
        }
        return new ConnectorHealth(up, entries);
    }

    boolean isUp() {
        return up;
    }

    /** One entry per channel, incoming channels first, in the order they were created. */
    List<ChannelEntry> channels() {
        return channels;
    }
}
