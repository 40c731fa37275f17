package io.rmq.engine.i18n;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The engine's exception texts, each with a stable id ({@code RMQ-03xx}). A method returns the
 * exception for the caller to throw or to fail a stage with, or, for the engine's own exception
 * types (which this package cannot see), the message to build them with. Use the shared instance
 * {@link #ex}; thread-safe.
 *
 * <p>Not here: the argument checks of value types, option builders and the admin API, whose texts say what is
 * allowed and are embedded in their callers' errors ({@link EngineArguments}).
 */
public final class EngineExceptions {

    /** The shared instance. */
    public static final EngineExceptions ex = new EngineExceptions();

    private EngineExceptions() {
    }

    /** RMQ-0301: {@code start()} was called on something already started or closed. */
    public IllegalStateException cannotStartInState(String what, String state) {
        return new IllegalStateException("RMQ-0301 " + what + " cannot be started in state " + state);
    }

    /** RMQ-0302: an operation reached something that is closed. */
    public IllegalStateException closed(String what) {
        return new IllegalStateException("RMQ-0302 " + what + " is closed");
    }

    /** RMQ-0303: the message of a {@code RedisUnavailableException}: Redis was never reached, nothing was sent. */
    public String redisNotReachedYet(String uri) {
        return "RMQ-0303 Redis at " + uri + " has not been reached yet; nothing was sent";
    }

    /**
     * RMQ-0304: the message of a {@code TopicConflictException}: the topic is recorded with another
     * type or slot amount.
     */
    public String topicConflict(String topic, String recorded, String requested, String registryKey) {
        return "RMQ-0304 Topic '" + topic + "' is recorded in Redis as " + recorded + " but is used here as "
                + requested + "; a topic keeps its type and slot amount for life: use another topic name, or"
                + " delete its keys and the '" + topic + "' field of hash '" + registryKey + "'";
    }

    /**
     * RMQ-0410: the message of a {@code TopicConflictException}: a topic is used with more slots than Redis
     * records for it; a topic grows only through the explicit operation.
     */
    public String topicNotGrown(String topic, int recorded, int requested) {
        return "RMQ-0410 Topic '" + topic + "' has " + recorded + " slots in Redis but is used here with slot-amount "
                + requested + "; a topic never grows by itself: grow it first (RmqAdmin.growTopic, or"
                + " 'rmq grow <topic> " + requested + "'; see docs/topic-growth.md), or configure slot-amount "
                + recorded;
    }

    /** RMQ-0411: a growth to an amount that is not a larger power of two. */
    public IllegalArgumentException badGrowthAmount(String topic, int current, int requested, int max) {
        return new IllegalArgumentException("RMQ-0411 Cannot grow topic '" + topic + "' from " + current + " to "
                + requested + " slots: the new amount must be a power of two above " + current + ", at most " + max);
    }

    /** RMQ-0412: a growth was asked for while another one, to another amount, is under way. */
    public IllegalStateException otherGrowthUnderWay(String topic, int target, int requested) {
        return new IllegalStateException("RMQ-0412 Topic '" + topic + "' is already growing to " + target
                + " slots; complete that growth first (grow it to " + target + " again, which resumes it), then to "
                + requested);
    }

    /** RMQ-0305: a consumer that coordinates through ZooKeeper was given slots by hand. */
    public IllegalStateException slotsAssignedByLeader(String consumer) {
        return new IllegalStateException("RMQ-0305 Consumer " + consumer
                + " coordinates through ZooKeeper: the leader assigns its slots");
    }

    /** RMQ-0306: demand must be positive (Reactive Streams rule 3.9). */
    public IllegalArgumentException demandNotPositive(long n) {
        return new IllegalArgumentException("RMQ-0306 Demand must be positive, was " + n);
    }

    /** RMQ-0307: a producer was used with a send method of another topic type. */
    public IllegalArgumentException wrongTopicType(String topic, String type, String expected) {
        return new IllegalArgumentException("RMQ-0307 Topic '" + topic + "' is of type " + type + ", not " + expected);
    }

    /** RMQ-0308: a RANGE_MERGE message needs a positive time range. */
    public IllegalArgumentException badTimeRange(String range) {
        return new IllegalArgumentException("RMQ-0308 A RANGE_MERGE message needs a time range > 0 ms, was " + range);
    }

    /** RMQ-0309: a PRIORITY message needs a finite priority. */
    public IllegalArgumentException badPriority(double priority) {
        return new IllegalArgumentException("RMQ-0309 A PRIORITY message needs a finite priority, was " + priority);
    }

    /** RMQ-0310: a FIXED_TIME message needs a delivery time. */
    public IllegalArgumentException missingDeliveryTime() {
        return new IllegalArgumentException("RMQ-0310 A FIXED_TIME message needs a delivery time");
    }

    /** RMQ-0206: a ZooKeeper client could not be started (a malformed connect string, usually). */
    public IllegalStateException cannotStartZooKeeperClient(String connect, Throwable cause) {
        return new IllegalStateException("RMQ-0206 Cannot start a ZooKeeper client for '" + connect + "': "
                + cause.getMessage(), cause);
    }

    /** RMQ-0311: ZooKeeper could not be reached in time by a tool that reads the coordination data. */
    public IllegalStateException zooKeeperNotReachedWithin(String connect, long timeoutMillis) {
        return new IllegalStateException("RMQ-0311 ZooKeeper at " + connect + " was not reached within "
                + timeoutMillis + " ms");
    }

    /** RMQ-0312: the admin API was asked about a topic that is not recorded in the registry. */
    public IllegalArgumentException unknownTopic(String topic, String registryKey, String known) {
        return new IllegalArgumentException("RMQ-0312 Topic '" + topic + "' is not recorded in hash '" + registryKey
                + "' (a topic is recorded when a producer or consumer first uses it); recorded topics: "
                + (known.isEmpty() ? "none" : known));
    }

    /** RMQ-0313: the admin API cannot reach Redis. */
    public IllegalStateException adminCannotReachRedis(String uri, String reason) {
        return new IllegalStateException("RMQ-0313 Cannot reach Redis at " + uri + ": " + reason);
    }

    /** RMQ-0314: an admin call got no answer in time. */
    public IllegalStateException adminTimedOut(String operation, String uri, long timeoutMillis) {
        return new IllegalStateException("RMQ-0314 " + operation + " got no answer from Redis at " + uri + " within "
                + timeoutMillis + " ms");
    }

    /** RMQ-0315: a requeue rate must be positive. */
    public IllegalArgumentException badRequeueRate(int perSecond) {
        return new IllegalArgumentException("RMQ-0315 A requeue rate must be at least 1 message per second, was "
                + perSecond);
    }

    /**
     * RMQ-0340: the message of a {@code WrongKeyTypeException}: a script call failed with {@code WRONGTYPE}
     * because keys of the topic hold another kind of value than the layout documents.
     *
     * @param script      the script file, e.g. {@code pop.lua}
     * @param wrongKeys   each offending key with what it holds and what it should hold
     * @param redisError  what Redis answered
     */
    public String wrongKeyType(String script, String wrongKeys, String redisError) {
        return "RMQ-0340 " + script + " failed because " + wrongKeys + "; the key was written by something other"
                + " than this library: save what it holds, then rename or delete it, and the slot works again (the"
                + " other slots are not affected). Redis said: " + redisError;
    }

    /** RMQ-0316: an interrupted thread gave up waiting for an admin call. */
    public IllegalStateException adminInterrupted(String operation, InterruptedException cause) {
        return new IllegalStateException("RMQ-0316 " + operation + " was interrupted", cause);
    }

    /** RMQ-0317: an interrupted thread gave up a growth between its steps; growing again resumes it. */
    public IllegalStateException growthInterrupted(InterruptedException cause) {
        return new IllegalStateException("RMQ-0317 The growth was interrupted; grow the topic again to resume it",
                cause);
    }

    /** RMQ-0318: an interrupted thread gave up a paced requeue of dead messages. */
    public IllegalStateException requeuePacingInterrupted(InterruptedException cause) {
        return new IllegalStateException("RMQ-0318 Interrupted while pacing a requeue", cause);
    }

    /** RMQ-0380: a Lua script of the engine is not on the class path (a damaged jar). */
    public IllegalStateException scriptMissing(String resource) {
        return new IllegalStateException("RMQ-0380 The script resource " + resource
                + " is missing from the class path");
    }

    /** RMQ-0381: a Lua script of the engine cannot be read. */
    public UncheckedIOException scriptUnreadable(String resource, IOException cause) {
        return new UncheckedIOException("RMQ-0381 Cannot read the script " + resource, cause);
    }

    /** RMQ-0382: the JVM offers no SHA-1, by which Redis knows the scripts. */
    public IllegalStateException sha1Unavailable(Exception cause) {
        return new IllegalStateException("RMQ-0382 SHA-1 is not available", cause);
    }

    /** RMQ-0383: {@code pop.lua} replied a status that {@code PopStatus} does not know (script and engine differ). */
    public IllegalArgumentException unknownPopStatus(long status) {
        return new IllegalArgumentException("RMQ-0383 pop.lua returned the unknown status " + status);
    }

    /** RMQ-0330: Redis refused the credentials of a connection. */
    public IllegalStateException redisRefusedCredentials(String uri, String reason) {
        return new IllegalStateException("RMQ-0330 Redis at " + uri + " refused the credentials: " + reason
                + "; check the user name and password and the user's ACL");
    }

    /** RMQ-0331: the TLS handshake with Redis failed. */
    public IllegalStateException redisTlsFailed(String uri, String reason) {
        return new IllegalStateException("RMQ-0331 The TLS handshake with Redis at " + uri + " failed: " + reason
                + "; the server's certificate must be signed by a trusted certificate authority (the CA file setting,"
                + " else the JVM's trust store) and name the host of the URI");
    }

    /**
     * RMQ-0370: the message of a {@code DurabilityException}: a durable send's write did not reach the
     * required replicas in time; it is stored on the master, unconfirmed.
     */
    public String replicasNotReached(String topic, long reached, int required, long timeoutMillis) {
        return "RMQ-0370 A send to topic '" + topic + "' reached " + reached + " of the " + required
                + " replica(s) required within " + timeoutMillis + " ms: the master stored it, but it may be lost if"
                + " the master fails now; check that enough replicas are connected and in sync (INFO replication),"
                + " or lower the number of replicas required or raise the durability timeout";
    }

    /** RMQ-0371: no master serves the hash slot of a key on the cluster (a failover or resharding under way). */
    public String noMasterForKey(String key, String uri) {
        return "RMQ-0371 No master of the Redis Cluster at " + uri + " serves key '" + key + "' now (a failover or a"
                + " resharding may be under way); nothing was sent, send again once the cluster is healthy";
    }

    /**
     * RMQ-0372: the durable connection was lost (or reconnected) after a write was stored and before the
     * {@code WAIT} that was to confirm it returned: the master stored it, unconfirmed.
     */
    public String reconnectedBeforeReplicated(String topic, String uri) {
        return "RMQ-0372 The connection to Redis at " + uri + " was lost before the replicas of a send to topic '"
                + topic + "' were confirmed: the master stored it, but it may be lost if the master failed; sending"
                + " it again may store it twice (a pending duplicate merges)";
    }

    /**
     * RMQ-0373: a send's write went out, but its reply was lost (the connection was reset or closed, the command
     * timed out) or, for a durable send, did not come within the durability timeout: it may have been stored.
     */
    public String sendReplyLost(String topic, String reason) {
        return "RMQ-0373 A send to topic '" + topic + "' was written to Redis, but its reply was lost (" + reason
                + "): the message may have been stored; sending it again may store it twice (a pending duplicate"
                + " merges)";
    }

    /**
     * RMQ-0374: a durable send was still waiting to be written (behind its slot's previous call, or for the
     * connection) when its durability timeout ran out: nothing was stored.
     */
    public String notWrittenInTime(String topic, long timeoutMillis) {
        return "RMQ-0374 A send to topic '" + topic + "' was not written to Redis within " + timeoutMillis
                + " ms (the durability timeout): nothing was stored, it is safe to send it again";
    }

    /**
     * RMQ-0500: the message of a {@code PendingOperationException}: a cancel, find or reschedule was refused
     * before Redis carried it out (Redis not reached, or an error reply): nothing was changed.
     */
    public String pendingOperationNotDone(String operation, String topic, String reason) {
        return "RMQ-0500 Could not " + operation + " a message of topic '" + topic + "': " + reason
                + "; nothing was changed, the call may be made again";
    }

    /**
     * RMQ-0501: the message of a {@code PendingOperationException}: the call went out but its reply was lost
     * (connection reset or closed, command timed out): Redis may have carried it out.
     */
    public String pendingOperationReplyLost(String operation, String topic, String reason) {
        return "RMQ-0501 Could not " + operation + " a message of topic '" + topic + "': its reply was lost (" + reason
                + "); Redis may have carried it out: find the message to know its state, or make the call again";
    }

    /** RMQ-0502: reschedule or reprioritize was used on a topic of the other kind. */
    public IllegalArgumentException wrongTypeForPendingChange(String topic, String type, String method, String use) {
        return new IllegalArgumentException("RMQ-0502 Topic '" + topic + "' is of type " + type + ": " + method
                + " does not apply to it; use " + use);
    }

    /** RMQ-0503: reschedule needs a due time. */
    public IllegalArgumentException missingDueTime(String topic) {
        return new IllegalArgumentException("RMQ-0503 Rescheduling a message of topic '" + topic
                + "' needs a due time (dueAt was null)");
    }

    /** RMQ-0504: reprioritize needs a finite priority. */
    public IllegalArgumentException badNewPriority(String topic, double priority) {
        return new IllegalArgumentException("RMQ-0504 Reprioritizing a message of topic '" + topic
                + "' needs a finite priority, was " + priority);
    }

    // ---- recurring schedules: RMQ-054x

    private static String schedule(String name) {
        return "Schedule '" + name + "': ";
    }

    /** RMQ-0540: a cron expression that is not of the dialect (UNIX, 5 fields). */
    public IllegalArgumentException badCron(String name, String setting, String expression, String reason) {
        return new IllegalArgumentException("RMQ-0540 " + schedule(name) + setting + " '" + expression
                + "' is not a UNIX cron expression of 5 fields (minute hour day-of-month month day-of-week, e.g."
                + " '0 6 * * *'): " + reason);
    }

    /** RMQ-0541: a time zone that Java does not know. */
    public IllegalArgumentException badZone(String name, String setting, String zone) {
        return new IllegalArgumentException("RMQ-0541 " + schedule(name) + setting + " '" + zone
                + "' is not a time zone: use a region id such as 'Europe/Paris' or 'UTC'");
    }

    /** RMQ-0542: neither or both of a cron expression and an interval. */
    public IllegalArgumentException cronOrInterval(String name, String cronSetting, String everySetting) {
        return new IllegalArgumentException("RMQ-0542 " + schedule(name) + "give exactly one of " + cronSetting
                + " (a cron expression) and " + everySetting + " (a fixed interval)");
    }

    /** RMQ-0543: an interval that is not a positive duration of whole milliseconds. */
    public IllegalArgumentException badInterval(String name, String setting, String every) {
        return new IllegalArgumentException("RMQ-0543 " + schedule(name) + setting + " '" + every
                + "' is not a positive ISO-8601 duration of whole milliseconds, such as 'PT1S' or 'PT15M'");
    }

    /** RMQ-0544: a name that cannot be part of a Redis key. */
    public IllegalArgumentException badScheduleName(String name) {
        return new IllegalArgumentException("RMQ-0544 '" + name + "' is not a schedule name: use 1 to 200 letters,"
                + " digits, '-', '_', '.' or ':'");
    }

    /** RMQ-0545: the value a topic type needs for the score is missing or not a number. */
    public IllegalArgumentException badScheduleValue(String name, String setting, String type, String value) {
        return new IllegalArgumentException("RMQ-0545 " + schedule(name) + "a " + type + " topic needs " + setting
                + ("PRIORITY".equals(type) ? " (the priority, a number)" : " (the time range in ms, > 0)")
                + ", was '" + value + "'");
    }

    /** RMQ-0546: a time zone for an interval schedule, which has none. */
    public IllegalArgumentException zoneWithoutCron(String name, String zoneSetting) {
        return new IllegalArgumentException("RMQ-0546 " + schedule(name) + zoneSetting
                + " applies to a cron expression only; a fixed interval counts from the Unix epoch");
    }

    /** RMQ-0547: a missed-tick policy that is neither skip nor catch-up. */
    public IllegalArgumentException badMissedPolicy(String name, String setting, String value) {
        return new IllegalArgumentException("RMQ-0547 " + schedule(name) + setting + " '" + value
                + "' is not a missed-tick policy: use skip or catch-up");
    }

    /** RMQ-0548: an operation on a schedule that is not recorded. */
    public IllegalArgumentException unknownSchedule(String name, String registryKey) {
        return new IllegalArgumentException("RMQ-0548 No schedule '" + name + "' is recorded in '" + registryKey + "'");
    }

    /** RMQ-0549: a schedule's payload is missing. */
    public IllegalArgumentException noSchedulePayload(String name, String setting) {
        return new IllegalArgumentException("RMQ-0549 " + schedule(name) + setting + " (the message content) is missing");
    }

    // ---- flow settings (admin)

    /** RMQ-0675: a flow setting's value that the setting does not allow. */
    public IllegalArgumentException badFlowValue(String field, String value, String requirement) {
        return new IllegalArgumentException("RMQ-0675 Flow setting '" + field + "' cannot be '" + value + "': "
                + requirement + " is required");
    }

    /** RMQ-0676: a flow setting that does not exist. */
    public IllegalArgumentException unknownFlowField(String field, String known) {
        return new IllegalArgumentException("RMQ-0676 '" + field + "' is not a flow setting: use one of " + known);
    }

    /** RMQ-0677: a tenant name that cannot carry a weight. */
    public IllegalArgumentException badTenant(String tenant, int maxLength) {
        return new IllegalArgumentException("RMQ-0677 Tenant '" + tenant + "' cannot carry a weight: a name of 1 to "
                + maxLength + " characters without control characters is required");
    }

    /** RMQ-0678: the aging epoch of a topic is recorded once and never changed. */
    public IllegalArgumentException agingEpochSetOnce(String topic, String recorded, String value) {
        return new IllegalArgumentException("RMQ-0678 The priority aging epoch of topic '" + topic + "' is " + recorded
                + " and is set once: it cannot become '" + value + "'");
    }

    /** RMQ-0679: Redis refused a change of flow settings (a value the script does not allow). */
    public IllegalArgumentException flowChangeRefused(String topic, String detail) {
        return new IllegalArgumentException("RMQ-0679 Redis refused the flow settings change of topic '" + topic
                + "': " + detail);
    }

    /** RMQ-0680: a change of flow settings that changes nothing. */
    public IllegalArgumentException emptyFlowChange(String topic) {
        return new IllegalArgumentException("RMQ-0680 The flow settings change of topic '" + topic
                + "' names no setting");
    }

    // ---- fair share between tenants: RMQ-0635..0649

    /** RMQ-0635: a message sent with a tenant and an expiry, which tenant queues do not keep. */
    public IllegalArgumentException tenantWithExpiry(String topic, String tenant) {
        return new IllegalArgumentException("RMQ-0635 A message for topic '" + topic + "' was given tenant '" + tenant
                + "' and an expiry; a tenant's queue keeps no expiries (fair share): send it without one of them");
    }

    /** RMQ-0636: a tenant weight that is not a positive number. */
    public IllegalArgumentException badTenantWeight(String field, String value) {
        return new IllegalArgumentException("RMQ-0636 The fair-share weight " + field + " must be a positive number, was '"
                + value + "'");
    }

    /** RMQ-0637: an entry of tenant-weights without its weight. */
    public IllegalArgumentException badTenantWeightEntry(String entry) {
        return new IllegalArgumentException("RMQ-0637 The tenant-weights entry '" + entry
                + "' is not <tenant>:<weight> (for example a:3,b:1)");
    }
}
