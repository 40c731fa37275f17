package io.rmq.engine.coordination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;

import io.rmq.engine.i18n.EngineExceptions;


/**
 * Reads, from any process, who owns which slots of a topic and which workers are live, as kept in
 * ZooKeeper. For operators there is a command line:
 * <pre>
 * java -cp rmq-connector.jar:... io.rmq.engine.coordination.SlotAssignments &lt;connect&gt; &lt;root&gt; &lt;topic&gt; [&lt;key prefix&gt;]
 * </pre>
 * The owner record in Redis ({@code HGETALL owner{<prefix><topic>_<slot>}}) shows which worker has
 * actually claimed a slot, under which epoch, and whether a handover is pending. Thread-safe.
 */
public final class SlotAssignments {

    private SlotAssignments() {
    }

    /**
     * The topic's current assignment; empty before a leader has written one.
     *
     * @param root the coordination root, e.g. {@value CoordinationOptions#DEFAULT_ROOT}
     * @throws Exception when ZooKeeper cannot be read, or the assignment is unreadable
     */
    public static Optional<SlotAssignment> read(CuratorFramework curator, String root, CoordinatedTopic topic)
            throws Exception {
        return read(curator, CoordinationPaths.of(root, topic));
    }

    /** The topic's live workers (their ephemeral nodes). */
    public static List<WorkerInfo> workers(CuratorFramework curator, String root, CoordinatedTopic topic)
            throws Exception {
        return workers(curator, CoordinationPaths.of(root, topic));
    }

    /**
     * Connects with the options' connect string, reads the topic's assignment and disconnects.
     *
     * @throws IllegalStateException when ZooKeeper is not reached within {@code timeout}
     */
    public static Optional<SlotAssignment> read(CoordinationOptions options, CoordinatedTopic topic, Duration timeout)
            throws Exception {
        try (CuratorFramework curator = connect(options.connectString(), timeout)) {
            return read(curator, options.root(), topic);
        }
    }

    /** Prints a topic's assignment and live workers: {@code <connect> <root> <topic> [<key prefix>]}. */
    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: SlotAssignments <zookeeper connect string> <root, e.g. /rmq> <topic> [<key prefix>]");
            System.exit(2);
        }
        CoordinationPaths paths = CoordinationPaths.of(args[1], args.length == 4 ? args[3] : "", args[2]);
        try (CuratorFramework curator = connect(CoordinationOptions.validConnectString(args[0]), Duration.ofSeconds(15))) {
            Optional<SlotAssignment> assignment = read(curator, paths);
            System.out.println(assignment.map(SlotAssignment::describe).orElse("no assignment at " + paths.assignment()));
            System.out.println("live workers under " + paths.workers() + ":");
            for (WorkerInfo w : workers(curator, paths)) {
                System.out.println("  " + w.id() + " (consumer " + w.consumer() + ", registered " + w.registered() + ")");
            }
        }
    }

    private static Optional<SlotAssignment> read(CuratorFramework curator, CoordinationPaths paths) throws Exception {
        try {
            return Optional.of(SlotAssignment.decode(curator.getData().forPath(paths.assignment())));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    static List<WorkerInfo> workers(CuratorFramework curator, CoordinationPaths paths) throws Exception {
        List<WorkerInfo> out = new ArrayList<>();
        List<String> children;
        try {
            children = curator.getChildren().forPath(paths.workers());
        } catch (KeeperException.NoNodeException e) {
            return out;
        }
        for (String child : children) {
            try {
                out.add(WorkerInfo.decode(child, curator.getData().forPath(paths.worker(child))));
            } catch (KeeperException.NoNodeException e) {
                // left meanwhile
            }
        }
        return out;
    }

    private static CuratorFramework connect(String connectString, Duration timeout) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.builder().connectString(connectString)
                .connectionTimeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        curator.start();
        if (!curator.blockUntilConnected((int) timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            curator.close();
            throw EngineExceptions.ex.zooKeeperNotReachedWithin(connectString, timeout.toMillis());
        }
        return curator;
    }
}
