package io.rmq.testing.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A local Sentinel setup: one master and one replica ({@code redis-server}), watched by three sentinels
 * ({@code redis-server <conf> --sentinel}, quorum 2) under the master name {@value #MASTER_NAME}, all on free
 * loopback ports. A master that stops answering for {@link #DOWN_AFTER} is failed over to the replica.
 *
 * <p>{@link #start()} starts one (close it when done: processes killed, directories removed);
 * {@link #killMaster()} kills the current master with {@code SIGKILL}, {@link #awaitFailover} waits until the
 * sentinels name the replica as master. Thread-safe.
 */
public final class RedisSentinelTestServer implements AutoCloseable {

    public static final String MASTER_NAME = "rmqmaster";
    /** {@code down-after-milliseconds}: how long the master may be silent before it is failed over. */
    public static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    private static final Duration READY = Duration.ofSeconds(60);

    private final Path dir;
    private final List<RedisProcess> servers = new ArrayList<>();
    private final List<RedisProcess> sentinels = new ArrayList<>();

    private RedisSentinelTestServer(Path dir) {
        this.dir = dir;
    }

    /** Starts the master, its replica and three sentinels, and waits until the sentinels see the replica. */
    public static RedisSentinelTestServer start() {
        Path dir = CommandLine.tempDirectory("rmq-sentinel-");
        RedisSentinelTestServer setup = new RedisSentinelTestServer(dir);
        try {
            RedisProcess master = RedisProcess.start(dir, List.of("repl-diskless-sync-delay 0"), false);
            setup.servers.add(master);
            RedisProcess replica = RedisProcess.start(dir, List.of("replicaof " + RedisProcess.HOST + " " + master.port(),
                    "repl-diskless-sync-delay 0"), false);
            setup.servers.add(replica);
            CommandLine.waitUntil("the replica in sync with its master", READY, replica::replicaInSyncOrMaster);
            for (int i = 0; i < 3; i++) {
                setup.sentinels.add(RedisProcess.start(dir, List.of(
                        "sentinel monitor " + MASTER_NAME + " " + RedisProcess.HOST + " " + master.port() + " 2",
                        "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis(),
                        "sentinel failover-timeout " + MASTER_NAME + " 10000",
                        "sentinel parallel-syncs " + MASTER_NAME + " 1"), true));
            }
            CommandLine.waitUntil("the sentinels see the replica and each other", READY, () -> setup.sentinels.stream()
                    .allMatch(s -> s.answers(out -> out.contains("num-slaves\n1") && out.contains("num-other-sentinels\n2"),
                            "SENTINEL", "MASTER", MASTER_NAME)));
            return setup;
        } catch (RuntimeException e) {
            setup.close();
            throw e;
        }
    }

    /** {@code redis-sentinel://127.0.0.1:<s1>,127.0.0.1:<s2>,127.0.0.1:<s3>#rmqmaster}. */
    public String uri() {
        return "redis-sentinel://" + sentinels.stream().map(RedisProcess::address).collect(Collectors.joining(","))
                + "#" + MASTER_NAME;
    }

    /** The server the sentinels name as master now. */
    public RedisProcess master() {
        String[] reply = sentinels.get(0).cli("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
        int port = Integer.parseInt(reply[1].trim());
        return servers.stream().filter(s -> s.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("the sentinels name an unknown master on port " + port));
    }

    /** Kills the current master with {@code SIGKILL} and returns it. */
    public RedisProcess killMaster() {
        RedisProcess master = master();
        master.kill();
        return master;
    }

    /**
     * Waits until every sentinel names the same running server other than {@code old} as the master, and it answers
     * as one. Every sentinel, not one: a client asks whichever sentinel answers first, and an old master restarted
     * while a sentinel still names it (a restart without persistence: empty) would be taken back as the master,
     * its replica made a replica of it again and the data lost (seen on Redis 6.2 when only the first sentinel was
     * asked).
     */
    public RedisProcess awaitFailover(RedisProcess old) {
        CommandLine.waitUntil("a failover away from " + old + " that every sentinel names", READY, () -> {
            try {
                RedisProcess m = master();
                return m != old && m.isRunning() && m.answers(r -> r.startsWith("master"), "ROLE")
                        && sentinels.stream().allMatch(s -> s.answers(r -> r.split("\n").length > 1
                                && r.split("\n")[1].trim().equals(Integer.toString(m.port())),
                                "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME));
            } catch (RuntimeException e) {
                return false;
            }
        });
        return master();
    }

    /** The master and replica processes. */
    public List<RedisProcess> servers() {
        return List.copyOf(servers);
    }

    @Override
    public void close() {
        sentinels.forEach(RedisProcess::close);
        servers.forEach(RedisProcess::close);
        CommandLine.deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return "Redis Sentinel " + uri();
    }
}
