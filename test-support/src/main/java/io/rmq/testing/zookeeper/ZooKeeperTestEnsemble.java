package io.rmq.testing.zookeeper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * A real ZooKeeper ensemble of several in-process servers (Curator's {@link TestingCluster}) with
 * the short tick of {@link ZooKeeperTestServer}, for tests that make it lose its leader. Tests usually
 * get one from {@link ZooKeeperExtension} ({@link ZooKeeperTest}). Close it after the test. Not
 * thread-safe.
 */
public final class ZooKeeperTestEnsemble implements AutoCloseable {

    /** The size {@link ZooKeeperExtension} starts: the smallest ensemble that survives losing a server. */
    public static final int DEFAULT_SIZE = 3;

    private final TestingCluster cluster;
    private final List<InstanceSpec> specs;
    private final Set<InstanceSpec> killed = new LinkedHashSet<>();

    private ZooKeeperTestEnsemble(TestingCluster cluster, List<InstanceSpec> specs) {
        this.cluster = cluster;
        this.specs = specs;
    }

    /** Starts {@code size} servers and waits until they have elected a leader. */
    public static ZooKeeperTestEnsemble start(int size) {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            specs.add(new InstanceSpec(null, -1, -1, -1, true, id, ZooKeeperTestServer.TICK_MS, -1));
        }
        Map<InstanceSpec, java.util.Collection<InstanceSpec>> topology = new java.util.LinkedHashMap<>();
        specs.forEach(s -> topology.put(s, specs));
        TestingCluster cluster = new TestingCluster(topology);
        try {
            cluster.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a ZooKeeper test ensemble of " + size, e);
        }
        ZooKeeperTestEnsemble ensemble = new ZooKeeperTestEnsemble(cluster, specs);
        ensemble.awaitLeader(30_000);
        return ensemble;
    }

    /** Every server: {@code 127.0.0.1:<port>,...}. */
    public String connectString() {
        return cluster.getConnectString();
    }

    /** The server that leads the ensemble now, asked with the {@code srvr} four-letter word. */
    public Optional<InstanceSpec> leader() {
        for (InstanceSpec spec : specs) {
            if ("leader".equals(mode(spec))) {
                return Optional.of(spec);
            }
        }
        return Optional.empty();
    }

    /** Waits until a server leads, and returns it. */
    public InstanceSpec awaitLeader(long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            Optional<InstanceSpec> leader = leader();
            if (leader.isPresent()) {
                return leader.get();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("the ZooKeeper ensemble elected no leader within " + timeoutMillis + " ms");
    }

    /** Kills one server, as a crash. */
    public void kill(InstanceSpec server) {
        try {
            cluster.killServer(server);
            killed.add(server);
        } catch (Exception e) {
            throw new IllegalStateException("cannot kill " + server, e);
        }
    }

    /** Starts a killed server again. */
    public void restart(InstanceSpec server) {
        try {
            cluster.restartServer(server);
            killed.remove(server);
        } catch (Exception e) {
            throw new IllegalStateException("cannot restart " + server, e);
        }
    }

    /** Starts every killed server again, and waits until the ensemble has a leader. */
    public void restartKilled() {
        if (killed.isEmpty()) {
            return;
        }
        new ArrayList<>(killed).forEach(this::restart);
        awaitLeader(30_000);
    }

    /** The server's mode ({@code leader}, {@code follower}, {@code standalone}), or null when it does not answer. */
    private static String mode(InstanceSpec spec) {
        try {
            String reply = FourLetterWordMain.send4LetterWord("127.0.0.1", spec.getPort(), "srvr", false, 1_000);
            for (String line : reply.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).trim();
                }
            }
            return null;
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (IOException e) {
            // temporary directories left behind are harmless
        }
    }
}
