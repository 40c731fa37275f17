package io.rmq.engine.coordination;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import org.apache.zookeeper.common.PathUtils;

import io.rmq.engine.i18n.EngineArguments;

/**
 * How consumers coordinate through ZooKeeper so that each slot of a topic is consumed by one
 * consumer at a time across the cluster (serial consumption per slot basis). Immutable; build with
 * {@link #builder(String)}, copy with {@link #toBuilder()}.
 *
 * <p>Consumers with equal {@link #connectString()}, {@link #sessionTimeout()} and
 * {@link #connectionTimeout()} that are created from one {@code RmqEngine} share one ZooKeeper
 * session. Every consumer of a topic must use the same ZooKeeper ensemble and {@link #root()}.
 *
 * <p>With {@link Builder#digestCredentials digest credentials}, the session authenticates with the
 * {@code digest} scheme and every znode it creates gets the ACL {@code CREATOR_ALL_ACL}: only
 * sessions authenticated as the same user may read or change it. Otherwise a JAAS configuration
 * given to the JVM ({@code java.security.auth.login.config}) applies to the ZooKeeper client as usual,
 * and znodes are created open to all ({@code OPEN_ACL_UNSAFE}).
 */
public final class CoordinationOptions {

    /** The ZooKeeper path under which topics' workers, leader election and assignments are kept. */
    public static final String DEFAULT_ROOT = "/rmq";
    /** A consumer that stops answering loses its slots after about this long. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(15);
    /** How long a connection attempt may take; also when an unreachable ZooKeeper is first logged. */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(15);
    /** How long the leader waits after workers join or leave before it reassigns slots. */
    public static final Duration DEFAULT_REBALANCE_DELAY = Duration.ofMillis(500);

    private final String connectString;
    private final String root;
    private final Duration sessionTimeout;
    private final Duration connectionTimeout;
    private final Duration rebalanceDelay;
    private final String digestUsername;
    private final String digestPassword;

    private CoordinationOptions(Builder b) {
        this.connectString = b.connectString;
        this.root = b.root;
        this.sessionTimeout = b.sessionTimeout;
        this.connectionTimeout = b.connectionTimeout;
        this.rebalanceDelay = b.rebalanceDelay;
        this.digestUsername = b.digestUsername;
        this.digestPassword = b.digestPassword;
    }

    /**
     * A builder with the defaults.
     *
     * @param connectString the ZooKeeper ensemble, {@code host:port[,host:port...][/chroot]}
     * @throws IllegalArgumentException when the connect string is malformed
     */
    public static Builder builder(String connectString) {
        return new Builder(connectString);
    }

    public Builder toBuilder() {
        return new Builder(connectString).root(root).sessionTimeout(sessionTimeout)
                .connectionTimeout(connectionTimeout).rebalanceDelay(rebalanceDelay)
                .digestCredentials(digestUsername, digestPassword);
    }

    /** The ZooKeeper ensemble, {@code host:port[,host:port...][/chroot]}. */
    public String connectString() {
        return connectString;
    }

    /** The ZooKeeper path under which coordination data is kept. Default {@value #DEFAULT_ROOT}. */
    public String root() {
        return root;
    }

    /** The ZooKeeper session timeout (the server may narrow it to its own bounds). Default 15 s. */
    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** The ZooKeeper connection timeout. Default 15 s. */
    public Duration connectionTimeout() {
        return connectionTimeout;
    }

    /** The leader's wait after membership changes before it reassigns slots. Default 500 ms. */
    public Duration rebalanceDelay() {
        return rebalanceDelay;
    }

    /** The user of the digest credentials, when they are set. Default: none. */
    public Optional<String> digestUsername() {
        return Optional.ofNullable(digestUsername);
    }

    /** The {@code digest} scheme's authentication bytes, {@code user:password}; empty without credentials. */
    Optional<byte[]> digestAuthentication() {
        return digestUsername == null ? Optional.empty()
                : Optional.of((digestUsername + ":" + digestPassword).getBytes(StandardCharsets.UTF_8));
    }

    /** Whether consumers with these options and {@code other} can share one ZooKeeper session. */
    public boolean sharesSessionWith(CoordinationOptions other) {
        return connectString.equals(other.connectString) && sessionTimeout.equals(other.sessionTimeout)
                && connectionTimeout.equals(other.connectionTimeout)
                && Objects.equals(digestUsername, other.digestUsername)
                && Objects.equals(digestPassword, other.digestPassword);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CoordinationOptions other && sharesSessionWith(other) && root.equals(other.root)
                && rebalanceDelay.equals(other.rebalanceDelay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectString, root, sessionTimeout, connectionTimeout, rebalanceDelay, digestUsername);
    }

    @Override
    public String toString() {
        return "CoordinationOptions[connectString=" + connectString + ", root=" + root + ", sessionTimeout="
                + sessionTimeout + ", connectionTimeout=" + connectionTimeout + ", rebalanceDelay=" + rebalanceDelay
                + (digestUsername == null ? "" : ", digestCredentials=" + digestUsername + ":***") + "]";
    }

    /** Builds {@link CoordinationOptions}; every setter validates its argument. Not thread-safe. */
    public static final class Builder {
        private final String connectString;
        private String root = DEFAULT_ROOT;
        private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
        private Duration rebalanceDelay = DEFAULT_REBALANCE_DELAY;
        private String digestUsername;
        private String digestPassword;

        private Builder(String connectString) {
            this.connectString = validConnectString(connectString);
        }

        /** The ZooKeeper path for coordination data: absolute, no trailing slash. Default {@value #DEFAULT_ROOT}. */
        public Builder root(String root) {
            Objects.requireNonNull(root, "root");
            if (root.equals("/")) {
                throw EngineArguments.arg.rootIsSlash(DEFAULT_ROOT);
            }
            try {
                PathUtils.validatePath(root);
            } catch (IllegalArgumentException e) {
                throw EngineArguments.arg.rootNotAPath(DEFAULT_ROOT, e);
            }
            this.root = root;
            return this;
        }

        /** ZooKeeper session timeout, from 100 ms to 24 days. Default 15 s. */
        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = millisBetween("sessionTimeout", sessionTimeout, 100);
            return this;
        }

        /** ZooKeeper connection timeout, from 100 ms to 24 days. Default 15 s. */
        public Builder connectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = millisBetween("connectionTimeout", connectionTimeout, 100);
            return this;
        }

        /** The leader's wait after membership changes, {@code >= 0}. Default 500 ms. */
        public Builder rebalanceDelay(Duration rebalanceDelay) {
            this.rebalanceDelay = millisBetween("rebalanceDelay", rebalanceDelay, 0);
            return this;
        }

        /**
         * Authenticates the session with the {@code digest} scheme and restricts the znodes it creates to this
         * user ({@code CREATOR_ALL_ACL}); both {@code null} for none. Default: none.
         *
         * @throws IllegalArgumentException when only one is given, or the user name contains ':'
         */
        public Builder digestCredentials(String username, String password) {
            if ((username == null) != (password == null)) {
                throw EngineArguments.arg.zooKeeperCredentialsNotTogether();
            }
            if (username != null && (username.isEmpty() || username.contains(":"))) {
                throw EngineArguments.arg.badZooKeeperUserName();
            }
            this.digestUsername = username;
            this.digestPassword = password;
            return this;
        }

        public CoordinationOptions build() {
            return new CoordinationOptions(this);
        }

        private static Duration millisBetween(String name, Duration value, long minMillis) {
            Objects.requireNonNull(value, name);
            if (value.toMillis() < minMillis || value.toMillis() > Integer.MAX_VALUE) {
                throw EngineArguments.arg.durationOutOfRange(name, minMillis, Integer.MAX_VALUE, value.toMillis());
            }
            return value;
        }
    }

    /** The requirement a connect string must meet, phrased to follow a colon. */
    public static final String CONNECT_STRING_REQUIREMENT = EngineArguments.CONNECT_STRING_REQUIREMENT;

    /**
     * Checks a connect string's form (not whether the hosts exist).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static String validConnectString(String connectString) {
        Objects.requireNonNull(connectString, "connectString");
        String s = connectString.trim();
        if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
            throw EngineArguments.arg.connectStringWithBlanks();
        }
        int chrootAt = s.indexOf('/');
        String hosts = chrootAt < 0 ? s : s.substring(0, chrootAt);
        if (chrootAt >= 0) {
            String chroot = s.substring(chrootAt);
            try {
                PathUtils.validatePath(chroot);
            } catch (IllegalArgumentException e) {
                throw EngineArguments.arg.badChroot(chroot, e);
            }
        }
        for (String host : hosts.split(",", -1)) {
            String problem = hostProblem(host);
            if (problem != null) {
                throw EngineArguments.arg.badZooKeeperHost(host, problem);
            }
        }
        return s;
    }

    private static String hostProblem(String hostAndPort) {
        if (hostAndPort.isEmpty()) {
            return "is empty";
        }
        String host = hostAndPort;
        String port = null;
        if (hostAndPort.startsWith("[")) {
            int close = hostAndPort.indexOf(']');
            if (close < 0) {
                return "lacks the closing ']' of an IPv6 address";
            }
            host = hostAndPort.substring(1, close);
            String rest = hostAndPort.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return "has text after the IPv6 address";
                }
                port = rest.substring(1);
            }
        } else {
            int colon = hostAndPort.lastIndexOf(':');
            if (colon >= 0) {
                host = hostAndPort.substring(0, colon);
                port = hostAndPort.substring(colon + 1);
            }
        }
        if (host.isEmpty()) {
            return "has no host";
        }
        if (port != null) {
            try {
                int p = Integer.parseInt(port);
                if (p < 1 || p > 65_535) {
                    return "has a port outside 1 to 65535";
                }
            } catch (NumberFormatException e) {
                return "has a port that is not a number";
            }
        }
        return null;
    }
}
