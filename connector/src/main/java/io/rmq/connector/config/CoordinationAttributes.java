package io.rmq.connector.config;

import java.util.Optional;

import io.rmq.engine.coordination.CoordinationOptions;

/**
 * Builds an incoming channel's {@link CoordinationOptions} from {@code zookeeper-connect} and the other
 * {@code zookeeper-*} attributes, ZooKeeper digest credentials included. Stateless.
 */
final class CoordinationAttributes {

    private CoordinationAttributes() {
    }

    /**
     * The coordination settings when {@code zookeeper-connect} is set, else {@code null} (competing
     * consumers). The other {@code zookeeper-*} attributes are read and checked either way, since they
     * may be set for every channel of the connector.
     */
    static CoordinationOptions coordination(ChannelAttributes a) {
        Optional<String> connect = a.raw(RmqAttribute.ZOOKEEPER_CONNECT);
        CoordinationOptions.Builder builder;
        try {
            builder = CoordinationOptions.builder(connect.orElse("localhost:2181"));
        } catch (IllegalArgumentException e) {
            a.problem(RmqAttribute.ZOOKEEPER_CONNECT, connect.orElse(""), e.getMessage());
            builder = CoordinationOptions.builder("localhost:2181");
        }
        a.apply(RmqAttribute.ZOOKEEPER_ROOT, a.string(RmqAttribute.ZOOKEEPER_ROOT), builder::root);
        a.apply(RmqAttribute.ZOOKEEPER_SESSION_TIMEOUT, a.millis(RmqAttribute.ZOOKEEPER_SESSION_TIMEOUT),
                builder::sessionTimeout);
        a.apply(RmqAttribute.ZOOKEEPER_CONNECTION_TIMEOUT, a.millis(RmqAttribute.ZOOKEEPER_CONNECTION_TIMEOUT),
                builder::connectionTimeout);
        a.apply(RmqAttribute.ZOOKEEPER_REBALANCE_DELAY, a.millis(RmqAttribute.ZOOKEEPER_REBALANCE_DELAY),
                builder::rebalanceDelay);
        Optional<String[]> credentials = zooKeeperCredentials(a);
        if (credentials.isPresent()) {
            builder.digestCredentials(credentials.get()[0], credentials.get()[1]);
        }
        return connect.isPresent() ? builder.build() : null;
    }

    /**
     * The ZooKeeper digest credentials {@code user:password} of {@code zookeeper-username} and
     * {@code zookeeper-password}, or empty when neither is set (or one lacks the other: recorded).
     */
    private static Optional<String[]> zooKeeperCredentials(ChannelAttributes a) {
        Optional<String> username = a.raw(RmqAttribute.ZOOKEEPER_USERNAME);
        Optional<String> password = a.secret(RmqAttribute.ZOOKEEPER_PASSWORD);
        if (username.isPresent() != password.isPresent()) {
            RmqAttribute missing = username.isPresent() ? RmqAttribute.ZOOKEEPER_PASSWORD : RmqAttribute.ZOOKEEPER_USERNAME;
            a.problem(missing, null, "zookeeper-username and zookeeper-password are required together");
            return Optional.empty();
        }
        if (username.isPresent() && username.get().contains(":")) {
            a.problem(RmqAttribute.ZOOKEEPER_USERNAME, username.get(), "a user name without ':' is required");
            return Optional.empty();
        }
        return username.map(u -> new String[] {u, password.get()});
    }
}
