package io.rmq.engine.i18n;

import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The engine's log messages, each with a stable id: {@code RMQ-00xx} the Redis connection,
 * {@code RMQ-01xx} consumers, {@code RMQ-02xx} the ZooKeeper coordination, {@code RMQ-043x} the Redis
 * server's version. All go to the
 * {@code java.util.logging} logger {@value #LOGGER_NAME} (Open Liberty and most runtimes route it to
 * their own log); messages are built only when their level is enabled. Parameters are plain values,
 * so this package depends on nothing of the engine. Use the shared instance {@link #log}; thread-safe.
 */
public final class EngineLogging {

    /** The name of the logger all messages go to. */
    public static final String LOGGER_NAME = "io.rmq.engine";

    /** The shared instance. */
    public static final EngineLogging log = new EngineLogging(Logger.getLogger(LOGGER_NAME));

    private final Logger logger;

    private EngineLogging(Logger logger) {
        this.logger = logger;
    }

    // ---- the Redis connection: RMQ-00xx

    /** RMQ-0001 (INFO): the first connection to Redis is established. */
    public void redisConnected(String uri) {
        log(Level.INFO, null, () -> "RMQ-0001 Connected to Redis at " + uri);
    }

    /** RMQ-0002 (WARNING): the connection to Redis dropped; Lettuce reconnects by itself. */
    public void redisConnectionLost(String uri) {
        log(Level.WARNING, null, () -> "RMQ-0002 Lost the connection to Redis at " + uri
                + "; reconnecting automatically, messages in flight stay in their prepare queues");
    }

    /** RMQ-0003 (WARNING): a first connection attempt failed; another follows after {@code delayMillis}. */
    public void redisUnreachable(String uri, int attempt, String reason, long delayMillis) {
        log(Level.WARNING, null, () -> "RMQ-0003 Redis at " + uri + " is unreachable (attempt " + attempt + "): "
                + reason + "; retrying in " + delayMillis + " ms");
    }

    /** RMQ-0004 (INFO): the connection is back after an outage; consumers poll their slots. */
    public void redisReconnected(String uri) {
        log(Level.INFO, null, () -> "RMQ-0004 Reconnected to Redis at " + uri + "; consumers poll their slots again");
    }

    /** RMQ-0005 (FINE): a message on a wake channel is not {@code <slot>:<delay ms>}; it is ignored. */
    public void malformedWakeNotice(String notice, String channel) {
        log(Level.FINE, null, () -> "RMQ-0005 Ignoring the malformed wake notice '" + notice + "' on " + channel);
    }

    /**
     * RMQ-0006 (WARNING, then FINE but once a minute): recording a topic again after a reconnection failed
     * while connected; it is tried again.
     */
    public void topicNotRecordedAgain(int attempt, String topic, String reason, long retryMillis) {
        log(attempt % 60 == 1 ? Level.WARNING : Level.FINE, null, () -> "RMQ-0006 Recording topic '" + topic
                + "' again in the topic registry after reconnecting failed (attempt " + attempt + "), retrying in "
                + retryMillis + " ms: " + reason);
    }

    /**
     * RMQ-0007 (SEVERE): after a reconnection, the topic registry records a topic in use here with another
     * definition: Redis lost the record and another application recorded the topic since. Left as it is.
     */
    public void topicRecordedDifferently(String topic, String registryKey, String recorded, String used) {
        log(Level.SEVERE, null, () -> "RMQ-0007 Topic '" + topic + "' is now recorded in hash '" + registryKey
                + "' as " + recorded + ", but this application uses it as " + used + ": Redis lost the topic's"
                + " record (it restarted empty or failed over without the data) and another application recorded"
                + " it since. The record is left as it is and this application goes on as it is; stop the"
                + " applications that disagree, then correct their configuration or the '" + topic + "' field of"
                + " hash '" + registryKey + "'");
    }

    /**
     * RMQ-0008 (WARNING): a Lettuce client did not finish shutting down within the bound; its daemon threads
     * are left to end by themselves, and closing goes on.
     */
    public void clientShutdownUnfinished(String what, long boundMillis) {
        log(Level.WARNING, null, () -> "RMQ-0008 The Redis client of " + what + " did not finish shutting down"
                + " within " + boundMillis + " ms; its threads are left to end by themselves and closing goes on");
    }

    // ---- consumers: RMQ-01xx

    /** RMQ-0101 (WARNING): a commit call failed; its messages are redelivered after their deadline. */
    public void commitFailed(int count, int slot, String topic, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0101 Committing " + count + " message(s) of slot " + slot + " of topic '"
                + topic + "' failed; they stay in the prepare queue and are redelivered after their deadline: "
                + reason);
    }

    /**
     * RMQ-0102 (WARNING): a plain commit removed its messages from the prepare queue, but what follows the removal
     * (counting them as acked, waking consumers waiting for them) failed; the slot's next commits check its keys first.
     */
    public void committedUncounted(long count, int slot, String topic, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0102 Committed " + count + " message(s) of slot " + slot + " of topic '"
                + topic + "', but counting them as acked and waking consumers waiting for them failed (a consumer"
                + " waiting for them finds them at its safety poll); the slot's next commits go through commit.lua,"
                + " which checks its keys first: " + reason);
    }

    /** RMQ-0103 (WARNING, FINE while Redis is known to be down): a pop failed; the slot is popped again in 1 s. */
    public void popFailed(boolean connected, int slot, String topic, String consumer, String reason) {
        // While the connection is down the client has logged the outage once; no line per slot and second.
        log(connected ? Level.WARNING : Level.FINE, null, () -> "RMQ-0103 Popping slot " + slot + " of topic '"
                + topic + "' for " + consumer + " failed, retrying in 1 s: " + reason);
    }

    /** RMQ-0104 (WARNING): a rollback call failed; the sweeper rolls the message back at its deadline. */
    public void rollbackFailed(Object delivery, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0104 Rolling back " + delivery + " failed; it stays in the prepare queue"
                + " and is rolled back after its deadline: " + reason);
    }

    /** RMQ-0105 (WARNING): a message failed on its last allowed delivery and is now in the dead queue. */
    public void movedToDeadQueue(Object delivery, String deadQueue, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0105 " + delivery + " failed on its last allowed delivery and moved to"
                + " the dead queue " + deadQueue + ": " + reason);
    }

    /** RMQ-0581 (WARNING): a failed delivery was dead-lettered at once, as asked, retries left or not. */
    public void deadLettered(Object delivery, String deadQueue, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0581 " + delivery + " failed and moved straight to the dead queue "
                + deadQueue + ", as its consumer asked: " + reason);
    }

    /** RMQ-0580 (WARNING): the listener threw when told that a hand-over ended; the messages stay in its hands. */
    public void listenerFailedAtHandOverEnd(String consumer, Throwable cause) {
        log(Level.WARNING, cause, () -> "RMQ-0580 The listener of " + consumer + " failed at the end of a hand-over;"
                + " the messages it received stay in its hands");
    }

    /** RMQ-0106 (WARNING): the listener threw; the message is rolled back. */
    public void listenerFailed(String consumer, Object delivery, Throwable cause) {
        log(Level.WARNING, cause, () -> "RMQ-0106 The listener of " + consumer + " failed on " + delivery
                + "; rolling it back");
    }

    /** RMQ-0107 (WARNING): releasing undelivered messages failed; they are rolled back at their deadline. */
    public void releaseFailed(int count, int slot, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0107 Releasing " + count + " undelivered message(s) of slot " + slot
                + " failed; they are rolled back after their deadline: " + reason);
    }

    /** RMQ-0108 (WARNING): extending the deadlines of held messages failed; the next round tries again. */
    public void extendFailed(int count, int slot, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0108 Extending the deadlines of " + count + " message(s) of slot " + slot
                + " failed: " + reason);
    }

    /** RMQ-0109 (INFO): the sweeper rolled back messages whose prepare deadline had passed. */
    public void sweptExpired(long total, int slot, String topic, long requeued, long merged, long dead) {
        log(Level.INFO, null, () -> "RMQ-0109 Rolled back " + total + " message(s) of slot " + slot + " of topic '"
                + topic + "' whose prepare deadline had passed (" + requeued + " requeued, " + merged + " merged, "
                + dead + " to the dead queue)");
    }

    /** RMQ-0114 (INFO): the dead-queue retention deleted messages. */
    public void deadTrimmed(long count, int slot, String topic, int maxCount, long maxAgeMillis) {
        log(Level.INFO, null, () -> "RMQ-0114 Deleted " + count + " message(s) from the dead queue of slot " + slot
                + " of topic '" + topic + "' beyond its retention (at most " + maxCount + " messages, "
                + maxAgeMillis + " ms)");
    }

    /** RMQ-0520 (FINE): the periodic cleanup removed messages that expired before they were delivered. */
    public void expiredRemoved(long count, int slot, String topic, boolean toDead) {
        log(Level.FINE, null, () -> "RMQ-0520 Removed " + count + " message(s) of slot " + slot + " of topic '" + topic
                + "' that expired before they were delivered" + (toDead ? ", kept in the dead queue" : ""));
    }

    /** RMQ-0112 (FINE): a sweep call failed; the next sweep tries again. */
    public void sweepFailed(int slot, String topic, String reason) {
        log(Level.FINE, null, () -> "RMQ-0112 Sweeping slot " + slot + " of topic '" + topic + "' failed: " + reason);
    }

    /** RMQ-0110 (WARNING): a consumer's graceful stop did not finish in time. */
    public void consumerDidNotStopCleanly(String consumer, Throwable cause) {
        log(Level.WARNING, cause, () -> "RMQ-0110 Consumer " + consumer + " did not stop cleanly");
    }

    /**
     * RMQ-0111 (WARNING): messages were still being processed when a stopping consumer's shutdown
     * timeout ended: released for redelivery, or in serial mode left for the sweeper.
     */
    public void unfinishedAtShutdown(int count, String consumer, long timeoutMillis, boolean leftInPrepareQueue) {
        log(Level.WARNING, null, () -> "RMQ-0111 " + count + " message(s) of " + consumer + " were still being"
                + " processed after the shutdown timeout of " + timeoutMillis + " ms; " + (leftInPrepareQueue
                        ? "left in the prepare queue, they are rolled back when their deadline passes"
                        : "released for redelivery"));
    }

    /** RMQ-0113 (FINE): a task reached a consumer whose loop has ended; it is dropped. */
    public void consumerClosedDroppedTask(String consumer) {
        log(Level.FINE, null, () -> "RMQ-0113 Consumer " + consumer + " is closed; dropped a task");
    }

    // ---- security of the Redis connection: RMQ-014x

    /** RMQ-0140 (SEVERE): Redis refused the credentials; the attempt is repeated, the credentials may be fixed meanwhile. */
    public void redisRefusedCredentials(String uri, int attempt, String reason, long delayMillis) {
        log(Level.SEVERE, null, () -> "RMQ-0140 Redis at " + uri + " refused the credentials (attempt " + attempt
                + "): " + reason + "; check the user and password (channel attributes redis-username and "
                + "redis-password, or the user info of redis-uri) and the user's ACL; retrying in " + delayMillis
                + " ms");
    }

    /** RMQ-0141 (SEVERE): the TLS handshake with Redis failed; the attempt is repeated. */
    public void redisTlsFailed(String uri, int attempt, String reason, long delayMillis) {
        log(Level.SEVERE, null, () -> "RMQ-0141 The TLS handshake with Redis at " + uri + " failed (attempt "
                + attempt + "): " + reason + "; the server's certificate must be signed by a trusted authority (channel "
                + "attribute redis-tls-ca-file, else the JVM's trust store) and name the host of redis-uri; retrying in "
                + delayMillis + " ms");
    }

    /** RMQ-0142 (WARNING): Redis may evict keys when it reaches its memory limit: messages would be lost. */
    public void evictionPolicyUnsafe(String uri, String policy) {
        log(Level.WARNING, null, () -> "RMQ-0142 Redis at " + uri + " has maxmemory-policy " + policy
                + ": when it reaches maxmemory it evicts keys without a TTL, so a slot's queue could vanish with its "
                + "messages; set maxmemory-policy noeviction (or a volatile-* policy: the connector's keys have no TTL)");
    }

    /** RMQ-0144 (FINE): Redis's eviction policy leaves the connector's keys alone. */
    public void evictionPolicySafe(String uri, String policy) {
        log(Level.FINE, null, () -> "RMQ-0144 Redis at " + uri + " has maxmemory-policy " + policy
                + ", which never evicts the connector's keys (they have no TTL)");
    }

    /** RMQ-0143 (INFO): the eviction policy could not be read (the user may not run CONFIG GET); not an error. */
    public void evictionPolicyNotChecked(String uri, String reason) {
        log(Level.INFO, null, () -> "RMQ-0143 Could not check the maxmemory-policy of Redis at " + uri + " (" + reason
                + "); make sure it is noeviction or volatile-*, else Redis may evict queued messages");
    }

    /**
     * RMQ-0170 (WARNING): a connection that is up did not answer a {@code PING} within the command timeout
     * (a half-open connection); it is closed so that it is replaced.
     */
    public void redisConnectionUnresponsive(String uri, String connection, long timeoutMillis) {
        log(Level.WARNING, null, () -> "RMQ-0170 The " + connection + " connection to Redis at " + uri
                + " did not answer a PING within the command timeout (" + timeoutMillis
                + " ms); closing it so that it is replaced (a half-open connection: the network or Redis's host"
                + " dropped it without closing it)");
    }

    // ---- coordination: RMQ-02xx

    /** RMQ-0201 (WARNING): ZooKeeper has never been reached; its consumers pop nothing meanwhile. */
    public void zooKeeperNotReached(String connect, long waitedMillis, long connectionTimeoutMillis) {
        log(Level.WARNING, null, () -> "RMQ-0201 ZooKeeper at " + connect + " has not been reached for "
                + waitedMillis + " ms (connection timeout " + connectionTimeoutMillis
                + " ms); the consumers coordinated through it own no slots and pop nothing until it is "
                + "reached; still trying");
    }

    /** RMQ-0202 (INFO): a ZooKeeper session is established. */
    public void zooKeeperConnected(String connect, long sessionId) {
        log(Level.INFO, null, () -> "RMQ-0202 Connected to ZooKeeper at " + connect + " (session 0x"
                + Long.toHexString(sessionId) + ")");
    }

    /** RMQ-0203 (WARNING): the ZooKeeper connection is suspended; its consumers stop popping. */
    public void zooKeeperSuspended(String connect) {
        log(Level.WARNING, null, () -> "RMQ-0203 Lost the connection to ZooKeeper at " + connect
                + "; its consumers stop popping until it is back or the session expires");
    }

    /** RMQ-0204 (WARNING): the ZooKeeper session expired; its consumers gave up their slots. */
    public void zooKeeperSessionExpired(String connect) {
        log(Level.WARNING, null, () -> "RMQ-0204 The ZooKeeper session at " + connect
                + " expired; its consumers gave up their slots (other workers take them over) and rejoin "
                + "once ZooKeeper is reachable");
    }

    /** RMQ-0205 (INFO): the ZooKeeper connection is back, with the same session or a new one. */
    public void zooKeeperReconnected(String connect, boolean sameSession, long sessionId) {
        log(Level.INFO, null, () -> "RMQ-0205 Reconnected to ZooKeeper at " + connect
                + (sameSession ? " (same session 0x" : " (new session 0x") + Long.toHexString(sessionId)
                + "); its consumers take part in the slot assignment again");
    }

    /** RMQ-0207 (SEVERE): a consumer cannot use ZooKeeper at all and pops nothing. */
    public void cannotCoordinate(String consumer, String topic, String connect, Throwable cause) {
        log(Level.SEVERE, cause, () -> "RMQ-0207 Consumer " + consumer + " of topic '" + topic
                + "' cannot coordinate through ZooKeeper at " + connect + " and pops nothing: " + cause.getMessage());
    }

    /** RMQ-0208 (FINE): deregistering a worker failed; its ephemeral node vanishes with the session. */
    public void deregisterFailed(String worker, Throwable cause) {
        log(Level.FINE, cause, () -> "RMQ-0208 Deregistering worker " + worker
                + " failed; its node vanishes with the session");
    }

    /** RMQ-0209 (FINE): closing a coordinator did not finish in time. */
    public void coordinatorCloseTimedOut(String consumer, Throwable cause) {
        log(Level.FINE, cause, () -> "RMQ-0209 Closing the coordinator of " + consumer + " did not finish in time");
    }

    /** RMQ-0210 (INFO): a worker registered in ZooKeeper. */
    public void workerRegistered(String worker, String topic, String path) {
        log(Level.INFO, null, () -> "RMQ-0210 Worker " + worker + " of topic '" + topic + "' registered under "
                + path + "; it pops the slots the leader assigns to it");
    }

    /** RMQ-0211 (INFO): a worker was elected leader of a topic's slot assignment. */
    public void leadsAssignment(String worker, String topic) {
        log(Level.INFO, null, () -> "RMQ-0211 Worker " + worker + " leads the slot assignment of topic '" + topic + "'");
    }

    /** RMQ-0212 (INFO): the leader wrote a new assignment. */
    public void slotsAssigned(String leader, String topic, int liveWorkers, String assignment) {
        log(Level.INFO, null, () -> "RMQ-0212 Leader " + leader + " assigned the slots of topic '" + topic + "' to "
                + liveWorkers + " live worker(s): " + assignment);
    }

    /**
     * RMQ-0213 (INFO, FINE while it has had no slot yet): what a worker may pop changed.
     *
     * @param change e.g. {@code pops slots 0-3 (assignment generation 2)}
     */
    public void workerOwnershipChanged(String worker, String topic, String change, boolean routine) {
        log(routine ? Level.FINE : Level.INFO, null, () -> "RMQ-0213 Worker " + worker + " of topic '" + topic + "' "
                + change);
    }

    /** RMQ-0214 (WARNING): the leader could not write an assignment; it retries. */
    public void assignmentFailed(String leader, String topic, long retryMillis, Throwable cause) {
        log(Level.WARNING, null, () -> "RMQ-0214 Leader " + leader + " could not assign the slots of topic '" + topic
                + "', retrying in " + retryMillis + " ms: " + cause);
    }

    /** RMQ-0215 (INFO): a worker no longer leads a topic's slot assignment. */
    public void noLongerLeads(String worker, String topic) {
        log(Level.INFO, null, () -> "RMQ-0215 Worker " + worker + " no longer leads the slot assignment of topic '"
                + topic + "'");
    }

    /** RMQ-0216 (SEVERE): a worker cannot take part in the leader election. */
    public void cannotJoinElection(String worker, String topic, Throwable cause) {
        log(Level.SEVERE, cause, () -> "RMQ-0216 Worker " + worker + " cannot join the leader election of topic '"
                + topic + "'");
    }

    /** RMQ-0217 (WARNING): a worker ignores an assignment it cannot read. */
    public void ignoringUnreadableAssignment(String path, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0217 Ignoring the unreadable slot assignment at " + path + ": " + reason);
    }

    /** RMQ-0218 (WARNING): the leader replaces an assignment it cannot read. */
    public void replacingUnreadableAssignment(String path, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0218 Replacing the unreadable slot assignment at " + path + ": " + reason);
    }

    /** RMQ-0240 (SEVERE): ZooKeeper refuses a worker the topic's znodes (another user's, or no credentials). */
    public void zooKeeperAccessDenied(String connect, String consumer, String topic, String path, String user) {
        log(Level.SEVERE, null, () -> "RMQ-0240 ZooKeeper at " + connect + " refused consumer " + consumer
                + " access to " + path + " of topic '" + topic + "' (NoAuth): "
                + (user == null ? "the consumer has no ZooKeeper credentials"
                        : "the znodes belong to another user than '" + user + "', or the password is wrong")
                + "; set zookeeper-username and zookeeper-password as every consumer of the topic does (see "
                + "docs/security.md); until then this consumer pops no slot");
    }

    /** RMQ-0220 (FINE): a consumer owns a slot and waits for the previous owner's messages. */
    public void awaitingHandover(String consumer, int slot, String topic, long epoch, long inFlight) {
        log(Level.FINE, null, () -> "RMQ-0220 Consumer " + consumer + " owns slot " + slot + " of topic '" + topic
                + "' under epoch " + epoch + " and pops it once the " + inFlight + " message(s) of its previous"
                + " owner are committed, rolled back or released");
    }

    /** RMQ-0221 (FINE): a handover is done; the new owner pops the slot. */
    public void handoverDone(String consumer, int slot, String topic, long waitedMillis) {
        log(Level.FINE, null, () -> "RMQ-0221 Consumer " + consumer + " pops slot " + slot + " of topic '" + topic
                + "': the previous owner's messages are done after " + waitedMillis + " ms");
    }

    /** RMQ-0222 (INFO): a consumer found its slot claimed under a newer epoch and stops popping it. */
    public void slotFenced(int slot, String topic, long newerEpoch, String consumer, long epoch) {
        log(Level.INFO, null, () -> "RMQ-0222 Slot " + slot + " of topic '" + topic + "' was claimed under epoch "
                + newerEpoch + " by another worker; consumer " + consumer + " (epoch " + epoch
                + ") stops popping it");
    }

    /** RMQ-0223 (FINE): a consumer returns prefetched messages of a slot it no longer owns. */
    public void prefetchReturned(String consumer, int count, int slot, String topic, String why) {
        log(Level.FINE, null, () -> "RMQ-0223 Consumer " + consumer + " returns " + count + " prefetched message(s) of"
                + " slot " + slot + " of topic '" + topic + "' to the store queue: " + why);
    }

    /** RMQ-0224 (WARNING): a handover waits unusually long: someone keeps extending the old messages. */
    public void longHandover(String consumer, long waitedMillis, int slot, String topic, long inFlight) {
        log(Level.WARNING, null, () -> "RMQ-0224 Consumer " + consumer + " has waited " + waitedMillis
                + " ms to pop slot " + slot + " of topic '" + topic + "': " + inFlight + " message(s) of its"
                + " previous owner are still in the prepare queue, kept there by a consumer that extends their"
                + " deadline (one still processing them, or never acknowledging them)");
    }

    /** RMQ-0120 (INFO): the URI names a Redis Cluster; the engine follows its topology. */
    public void connectedToCluster(String uri, boolean sharded) {
        log(Level.INFO, null, () -> "RMQ-0120 " + uri + " is a Redis Cluster: commands go to the node of each slot"
                + (sharded ? ", wake notices use sharded Pub/Sub" : ", wake notices use plain Pub/Sub (Redis 6)"));
    }

    /** RMQ-0121 (INFO): the cluster's topology changed (a failover, a resharding): consumers look at their slots again. */
    public void clusterTopologyChanged(String uri) {
        log(Level.INFO, null, () -> "RMQ-0121 The topology of the Redis Cluster at " + uri + " changed: wake"
                + " subscriptions follow their slots and consumers pop again");
    }

    /** RMQ-0122 (WARNING): subscribing to sharded wake channels failed; consumers fall back to their safety poll. */
    public void shardedSubscriptionFailed(int channels, String node, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0122 Subscribing to " + channels + " sharded wake channel(s) on cluster"
                + " node " + node + " failed: " + reason + "; consumers of those slots rely on their poll-interval"
                + " until the next topology change");
    }

    /** RMQ-0123 (WARNING): a commit or rollback kept for a retry is given up; its messages come back after their deadline. */
    public void settlementRetryDropped(int count, String kind, int slot, String topic, String why) {
        log(Level.WARNING, null, () -> "RMQ-0123 Gave up the " + kind + " of " + count + " message(s) of slot " + slot
                + " of topic '" + topic + "' kept for a retry while Redis was unreachable: " + why + "; they are"
                + " redelivered or rolled back after their prepare deadline");
    }

    /** RMQ-0124 (INFO): a commit or rollback that failed while Redis was unreachable succeeded when sent again. */
    public void settlementRetried(int count, String kind, int slot, String topic, long afterMillis) {
        log(Level.INFO, null, () -> "RMQ-0124 The " + kind + " of " + count + " message(s) of slot " + slot
                + " of topic '" + topic + "' succeeded when sent again, " + afterMillis + " ms after it first failed");
    }

    /**
     * RMQ-0185 (WARNING, FINE while Redis is known to be down): the safety poll of the slots that had
     * nothing waiting (one {@code EXISTS} over their store queues) failed; they are checked again in 1 s.
     */
    public void idleCheckFailed(boolean connected, int slots, String topic, String consumer, String reason) {
        log(connected ? Level.WARNING : Level.FINE, null, () -> "RMQ-0185 Checking the store queues of " + slots
                + " idle slot(s) of topic '" + topic + "' for " + consumer + " failed, retrying in 1 s: " + reason);
    }

    // ---- producers: RMQ-019x

    /**
     * RMQ-0190 (WARNING): a durable producer requires more replicas than the master reports connected: its
     * sends fail after the durability timeout until enough replicas are connected.
     */
    public void fewerReplicasThanRequired(String topic, String uri, int connected, int required, long timeoutMillis) {
        log(Level.WARNING, null, () -> "RMQ-0190 Redis at " + uri + " reports " + connected + " connected replica(s),"
                + " but sends to topic '" + topic + "' require " + required + ": they fail after " + timeoutMillis
                + " ms each until enough replicas are connected");
    }

    // ---- topic growth: RMQ-040x

    /** RMQ-0400 (INFO): a consumer learnt that its topic grew and consumes the new slots (or may be assigned them). */
    public void consumerGrows(String consumer, String topic, int from, int to) {
        log(Level.INFO, null, () -> "RMQ-0400 Topic '" + topic + "' grows from " + from + " to " + to + " slots: "
                + consumer + " follows (see docs/topic-growth.md)");
    }

    /**
     * RMQ-0401 (WARNING): the configuration gives a topic fewer slots than Redis records since it grew; the
     * recorded amount is used.
     */
    public void configuredAmountBelowRecorded(String topic, int configured, int recorded) {
        log(Level.WARNING, null, () -> "RMQ-0401 Topic '" + topic + "' has " + recorded + " slots since it grew, but is"
                + " configured here with slot-amount " + configured + ": using " + recorded
                + "; update slot-amount to " + recorded + " in the configuration");
    }

    /** RMQ-0402 (INFO): a growth of a topic (one doubling) began. */
    public void growthBegan(String topic, int from, int to) {
        log(Level.INFO, null, () -> "RMQ-0402 Growing topic '" + topic + "' from " + from + " to " + to + " slots");
    }

    /** RMQ-0403 (FINE): an old slot was split; its new slot is held until its pre-split members have left. */
    public void slotSplit(String topic, int slot, int newSlot, long held) {
        log(Level.FINE, null, () -> "RMQ-0403 Split slot " + slot + " of topic '" + topic + "': slot " + newSlot
                + " starts once the " + held + " message(s) slot " + slot + " held before have left it");
    }

    /** RMQ-0404 (FINE): a new slot was released: its old slot holds no pre-split member any more. */
    public void newSlotReleased(String topic, int newSlot) {
        log(Level.FINE, null, () -> "RMQ-0404 Slot " + newSlot + " of topic '" + topic + "' is consumed from now on");
    }

    /** RMQ-0405 (INFO): a growth of a topic (one doubling) ended: the registry records the new amount. */
    public void growthFinished(String topic, int amount, long millis) {
        log(Level.INFO, null, () -> "RMQ-0405 Topic '" + topic + "' has " + amount + " slots now (the growth took "
                + millis + " ms)");
    }

    /** RMQ-0406 (FINE): reading a topic's growth state failed; it is read again at the next check. */
    public void growthCheckFailed(String topic, String reason) {
        log(Level.FINE, null, () -> "RMQ-0406 Reading the growth state of topic '" + topic + "' failed: " + reason);
    }

    // ---- recurring schedules: RMQ-055x

    /** RMQ-0550 (INFO): this instance runs a schedule now. */
    public void scheduleRunning(String name, String topic, String timing) {
        log(Level.INFO, null, () -> "RMQ-0550 Running schedule '" + name + "' (" + timing + ") of topic '" + topic
                + "' here; each tick is sent once in the whole cluster");
    }

    /** RMQ-0551 (INFO): a schedule was removed (or redefined); this instance stops running it. */
    public void scheduleStopped(String name, String why) {
        log(Level.INFO, null, () -> "RMQ-0551 Stopped running schedule '" + name + "' here: " + why);
    }

    /** RMQ-0552 (INFO): ticks were missed while nothing ran the schedule; what its policy did. */
    public void scheduleMissedTicks(String name, String policy, String tick) {
        log(Level.INFO, null, () -> "RMQ-0552 Schedule '" + name + "' missed ticks while nothing ran it; policy "
                + policy + (policy.equals("SKIP") ? ": skipped them, recorded up to " : ": sent one message for ")
                + tick);
    }

    /** RMQ-0553 (WARNING, then FINE): a tick call failed; the schedule starts again (missed-tick policy) after a delay. */
    public void scheduleTickFailed(int attempt, String name, String reason, long retryMillis) {
        log(attempt % 60 == 1 ? Level.WARNING : Level.FINE, null, () -> "RMQ-0553 A tick of schedule '" + name
                + "' failed (attempt " + attempt + "), trying again in " + retryMillis + " ms: " + reason);
    }

    /** RMQ-0554 (SEVERE): a recorded schedule cannot be read; it is not run. */
    public void scheduleUnreadable(String name, String registryKey, String reason) {
        log(Level.SEVERE, null, () -> "RMQ-0554 Schedule '" + name + "' recorded in '" + registryKey
                + "' cannot be read and is not run: " + reason + "; declare it again");
    }

    /** RMQ-0555 (WARNING): reading the schedules of a key prefix failed; read again later. */
    public void schedulesNotRead(String registryKey, String reason, long retryMillis) {
        log(Level.WARNING, null, () -> "RMQ-0555 Reading the schedules of '" + registryKey + "' failed, reading"
                + " again in " + retryMillis + " ms: " + reason);
    }

    // ---- flow control: RMQ-060x

    /**
     * RMQ-0600 (WARNING): a consumer could not reserve permits of its topic's rate limit; it pops nothing until a
     * retry succeeds, never unthrottled.
     */
    public void flowAcquireFailed(String topic, String consumer, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0600 Reserving permits of the rate limit of topic '" + topic + "' for "
                + consumer + " failed, retrying in 1 s (nothing is popped meanwhile): " + reason);
    }

    /**
     * RMQ-0601 (WARNING): a consumer's configured rate limit replaced another one configured before for the same
     * topic: applications disagree, and the last to start sets the limit.
     */
    public void flowConfigReplaced(String topic, String consumer, String rate, int burst, String previousRate,
            String previousBurst) {
        log(Level.WARNING, null, () -> "RMQ-0601 The rate limit of topic '" + topic + "' configured for " + consumer
                + " (rate-limit " + rate + "/s, burst " + burst + ") replaces the one configured before (rate-limit "
                + (previousRate.isEmpty() ? "none" : previousRate + "/s") + ", burst "
                + (previousBurst.isEmpty() ? "0" : previousBurst) + "): the application started last sets the limit;"
                + " configure the same values everywhere, or change the limit live through the admin API");
    }

    // ---- priority aging: RMQ-065x

    /**
     * RMQ-0650 (WARNING): reading (or fixing) a topic's priority aging epoch failed; the producer's sends are not
     * aged until its aging is set again.
     */
    public void agingEpochFailed(String topic, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0650 Reading the priority aging epoch of topic '" + topic
                + "' failed, its sends are not aged until the aging is set again: " + reason);
    }

    // ---- flow settings: RMQ-066x

    /**
     * RMQ-0660 (WARNING): the topic's flow hash disappeared (Redis restarted empty, or lost it in a fail-over): the
     * consumer writes its configured rate limit again; a limit changed live since is lost.
     */
    public void flowSettingsLost(String topic, String consumer) {
        log(Level.WARNING, null, () -> "RMQ-0660 The flow settings of topic '" + topic + "' are gone from Redis"
                + " (restarted empty or failed over without them): " + consumer + " writes its configured rate-limit"
                + " again; set a limit changed live again through the admin API");
    }

    /** RMQ-0661 (WARNING): the listener threw when told how long the consumer waited for permits; ignored. */
    public void listenerFailedOnThrottled(String consumer, Throwable cause) {
        log(Level.WARNING, cause, () -> "RMQ-0661 The listener of " + consumer + " failed when told how long it"
                + " waited for permits of the rate limit; ignored");
    }

    /**
     * RMQ-0662 (WARNING): the topic's flow hash sets limits per key and fair share at once, which one consumer cannot
     * apply together: the limits per key apply, fair share does not.
     */
    public void keyLimitsWithFairShare(String topic, String consumer) {
        log(Level.WARNING, null, () -> "RMQ-0662 Topic '" + topic + "' has limits per key and fair share set at once;"
                + " " + consumer + " applies the limits per key and pops the store queue only: remove one of them"
                + " (rmq flow remove, or the admin API)");
    }

    /** RMQ-0663 (WARNING): a flow hash field of a feature holds a value it does not allow; the features stay as they are. */
    public void flowFeaturesUnreadable(String topic, String consumer, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0663 The flow settings of topic '" + topic + "' cannot be read, " + consumer
                + " keeps its limits per key, fair share and aging as they are: " + reason);
    }

    /**
     * RMQ-0664 (WARNING): writing a channel's configured limits per key, fair share or aging as the topic's starting
     * values failed; it applies its configured values and writes them when the flow hash next changes.
     */
    public void flowStartingValuesFailed(String topic, String who, String reason) {
        log(Level.WARNING, null, () -> "RMQ-0664 Writing the configured flow settings of " + who + " to topic '" + topic
                + "' failed; it applies them as configured and writes them again when the topic's flow settings"
                + " change: " + reason);
    }

    // ---- limits per key: RMQ-0620..0634

    /**
     * RMQ-0620 (INFO): members parked by limits per key were brought back to a slot's store queue, because this
     * engine's consumers of the topic no longer limit keys.
     */
    public void unparked(long members, int slot, String topic) {
        log(Level.INFO, null, () -> "RMQ-0620 Brought back " + members + " message(s) of slot " + slot + " of topic '"
                + topic + "' held back by limits per key: its consumers here no longer limit keys");
    }

    // ---- the Redis server's version: RMQ-043x

    /**
     * RMQ-0430 (SEVERE): the Redis server is older than the scripts need; sends, pops and commits fail with
     * Redis's {@code unknown command} error until it is upgraded.
     */
    public void redisTooOld(String uri, String version, String minimum) {
        log(Level.SEVERE, null, () -> "RMQ-0430 Redis at " + uri + " is version " + version + ", but this library needs "
                + "Redis " + minimum + " or later (its scripts use ZMSCORE): sends, pops and commits fail with 'unknown "
                + "command' until the server is upgraded");
    }

    private void log(Level level, Throwable cause, Supplier<String> message) {
        if (cause == null) {
            logger.log(level, message);
        } else {
            logger.log(level, cause, message);
        }
    }
}
