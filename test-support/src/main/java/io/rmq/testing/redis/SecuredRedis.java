package io.rmq.testing.redis;

import io.rmq.testing.Prerequisites;

/**
 * A Redis server of a test's own, for the security tests: ACL users, a password on the
 * {@code default} user, TLS, eviction policies, all set with {@code CONFIG SET} / {@code ACL SETUSER}
 * on a fresh {@link EmbeddedRedis}, so the shared {@link RedisTestServer} is never touched. Set the
 * password last: the administrative commands of this class go through a plain socket without
 * credentials. Close it after the test. Not thread-safe.
 */
public final class SecuredRedis implements AutoCloseable {

    private final EmbeddedRedis redis;
    private int tlsPort;

    private SecuredRedis(EmbeddedRedis redis) {
        this.redis = redis;
    }

    /** Starts a server on a free loopback port, open to all (no password yet). */
    public static SecuredRedis start() {
        return new SecuredRedis(EmbeddedRedis.start());
    }

    /** {@code redis://127.0.0.1:<port>}, without credentials. */
    public String uri() {
        return redis.uri();
    }

    /** {@code redis://<user>:<password>@127.0.0.1:<port>}. */
    public String uri(String user, String password) {
        return "redis://" + user + ":" + password + "@" + EmbeddedRedis.HOST + ":" + redis.port();
    }

    public int port() {
        return redis.port();
    }

    /** Runs a command without credentials (before {@link #requirePassword}). */
    public String command(String... args) {
        return redis.command(args);
    }

    /** Creates or changes an ACL user: {@code ACL SETUSER <user> <rules...>}. */
    public SecuredRedis aclSetUser(String user, String... rules) {
        String[] args = new String[rules.length + 3];
        args[0] = "ACL";
        args[1] = "SETUSER";
        args[2] = user;
        System.arraycopy(rules, 0, args, 3, rules.length);
        redis.command(args);
        return this;
    }

    /**
     * Turns TLS on, on a second port, with this certificate (clients need not present one); the plain port
     * stays open for this class's own commands.
     *
     * @return the TLS port
     */
    public int enableTls(TestCertificates ca, TestCertificates.ServerCertificate certificate) {
        Prerequisites.redis7("a Redis server with TLS");
        tlsPort = Loopback.freePort();
        redis.command("CONFIG", "SET", "tls-cert-file", certificate.certificate().toString(),
                "tls-key-file", certificate.key().toString(), "tls-ca-cert-file", ca.caCertificate().toString(),
                "tls-auth-clients", "no");
        redis.command("CONFIG", "SET", "tls-port", Integer.toString(tlsPort));
        return tlsPort;
    }

    /** {@code rediss://<host>:<tls port>}. */
    public String tlsUri(String host) {
        return "rediss://" + host + ":" + tlsPort;
    }

    /** Sets the {@code default} user's password ({@code requirepass}); commands of this class fail afterwards. */
    public void requirePassword(String password) {
        redis.command("CONFIG", "SET", "requirepass", password);
    }

    @Override
    public void close() {
        redis.close();
    }
}
