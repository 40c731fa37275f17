package io.rmq.engine.i18n;

/**
 * The texts of the engine's argument checks: the value types and option builders ({@code TopicDefinition},
 * {@code ConsumerOptions}, {@code ProducerOptions}, {@code CoordinationOptions}, {@code RedisAccess}), the admin
 * API's arguments and the coordination data read back from ZooKeeper. Each says what is allowed, without an id:
 * the callers embed it in errors of their own (the connector's configuration problems, the admin REST answers,
 * the command line's), which carry the id. Every method returns the exception for the caller to throw. Use the
 * shared instance {@link #arg}; thread-safe.
 */
public final class EngineArguments {

    /** The shared instance. */
    public static final EngineArguments arg = new EngineArguments();

    /** The requirement a ZooKeeper connect string must meet, phrased to follow a colon. */
    public static final String CONNECT_STRING_REQUIREMENT =
            "a ZooKeeper connect string host:port[,host:port...][/chroot] is required";

    private EngineArguments() {
    }

    // ---- topics and options

    public IllegalArgumentException badTopicName(String name) {
        return new IllegalArgumentException("topic name '" + name + "' is invalid: use letters, digits and ._:- only, and not . or .. alone");
    }

    public IllegalArgumentException badSlotAmount(String topic, int slotAmount, int max) {
        return new IllegalArgumentException("slot amount " + slotAmount + " of topic '" + topic
                + "' is invalid: it must be a power of two from 1 to " + max);
    }

    public IllegalArgumentException coordinatedSlotAmountBelowOne(int slotAmount) {
        return new IllegalArgumentException("slotAmount must be at least 1, was " + slotAmount);
    }

    /** A topic rate limit that is not {@code <amount>/<s|m|h>} with an amount above 0. */
    public IllegalArgumentException badRateLimit(String rate) {
        return new IllegalArgumentException("rate limit '" + rate
                + "' is invalid: <amount>/s, <amount>/m or <amount>/h with an amount above 0 is required, e.g. 500/s");
    }

    /** A failure threshold of the adaptive slow-down outside (0, 1). */
    public IllegalArgumentException badAdaptiveThreshold(double threshold) {
        return new IllegalArgumentException("adaptive failure threshold " + threshold
                + " is invalid: a ratio above 0 and below 1 is required, e.g. 0.5");
    }

    /** A burst of a topic rate limit below 0. */
    /** A priority aging pace that is not {@code <points>/[<count>]<ms|s|m|h>} with points and count above 0. */
    public IllegalArgumentException badAgingPace(String pace) {
        return new IllegalArgumentException("priority aging pace '" + pace
                + "' is invalid: <points>/<time> with points above 0 is required, the time a unit (ms, s, m, h)"
                + " optionally after a count, for example 1/10s (one point per 10 seconds) or 5/m");
    }

    /** Priority aging asked of a topic that is not {@code PRIORITY}. */
    public IllegalArgumentException agingNeedsPriorityTopic(String topic, String type) {
        return new IllegalArgumentException("priority aging is for PRIORITY topics only: topic '" + topic + "' is "
                + type);
    }

    /** A priority aging epoch that is not a whole number of ms from 0 (ms since 1970). */
    public IllegalArgumentException badAgingEpoch(Object epoch) {
        return new IllegalArgumentException("priority aging epoch '" + epoch
                + "' is invalid: a whole number of ms from 0 (since 1970, Redis clock) is required");
    }

    public IllegalArgumentException badRateLimitBurst(int burst) {
        return new IllegalArgumentException("rate limit burst " + burst
                + " is invalid: 0 (a tenth of a second's worth) or more messages is required");
    }

    /** A concurrency per key below 0 ({@code 0}: none). */
    public IllegalArgumentException badKeyConcurrency(String concurrency) {
        return new IllegalArgumentException("concurrency per key '" + concurrency
                + "' is invalid: a whole number of messages, 1 or more (0 or absent: no limit), is required");
    }

    /** A rate per key that is not a number of messages per second of 0 or more ({@code 0}: none). */
    public IllegalArgumentException badKeyRate(String perSecond) {
        return new IllegalArgumentException("rate per key '" + perSecond
                + "' is invalid: messages per second above 0 (0 or absent: no limit) are required");
    }

    /** A burst per key below 0 ({@code 0}: one message). */
    public IllegalArgumentException badKeyBurst(String burst) {
        return new IllegalArgumentException("burst per key '" + burst
                + "' is invalid: a whole number of messages, 0 (one at a time) or more, is required");
    }

    /** A trace context that cannot be recorded with a message (empty, or with a space). */
    public IllegalArgumentException badTraceparent(String traceparent) {
        return new IllegalArgumentException("trace context '" + traceparent
                + "' is invalid: a W3C traceparent 00-<trace id>-<span id>-<flags> is required");
    }

    /** A count option (maxRetries, deadMaxCount) below 0. */
    public IllegalArgumentException negativeCount(String option, int value) {
        return new IllegalArgumentException(option + " must be >= 0, was " + value);
    }

    public IllegalArgumentException batchSizeOutOfRange(int batchSize, int max) {
        return new IllegalArgumentException("batchSize must be from 1 to " + max + ", was " + batchSize);
    }

    public IllegalArgumentException durationTooShort(String option, long minMillis, long millis) {
        return new IllegalArgumentException(option + " must be at least " + minMillis + " ms, was " + millis + " ms");
    }

    public IllegalArgumentException durationOutOfRange(String option, long minMillis, long maxMillis, long millis) {
        return new IllegalArgumentException(option + " must be from " + minMillis + " to " + maxMillis + " ms, was "
                + millis + " ms");
    }

    public IllegalArgumentException durableReplicasOutOfRange(int replicas, int max) {
        return new IllegalArgumentException("a number of replicas from 0 to " + max + " is required, not " + replicas);
    }

    public IllegalArgumentException durabilityTimeoutOutOfRange(long millis, long maxMillis) {
        return new IllegalArgumentException("a timeout from 1 to " + maxMillis + " ms is required, not " + millis
                + " ms");
    }

    // ---- Redis access

    /** The URI is masked, and so is the reason: a malformed URI may still hold a password. */
    public IllegalArgumentException malformedRedisUri(String maskedUri, String maskedReason) {
        return new IllegalArgumentException("the Redis URI " + maskedUri + " is malformed: " + maskedReason);
    }

    public IllegalArgumentException credentialsGivenTwice() {
        return new IllegalArgumentException("credentials are given both in the Redis URI and apart from it;"
                + " give them in one place");
    }

    public IllegalArgumentException userWithoutPassword() {
        return new IllegalArgumentException("a user name is given without a password");
    }

    // ---- ZooKeeper coordination

    public IllegalArgumentException rootIsSlash(String example) {
        return new IllegalArgumentException("root must be a path below '/', e.g. " + example);
    }

    public IllegalArgumentException rootNotAPath(String example, IllegalArgumentException why) {
        return new IllegalArgumentException("root must be an absolute ZooKeeper path such as " + example + ": "
                + why.getMessage(), why);
    }

    public IllegalArgumentException zooKeeperCredentialsNotTogether() {
        return new IllegalArgumentException("a ZooKeeper user name and password are required together");
    }

    public IllegalArgumentException badZooKeeperUserName() {
        return new IllegalArgumentException("a ZooKeeper user name must be non-empty and without ':'");
    }

    public IllegalArgumentException connectStringWithBlanks() {
        return new IllegalArgumentException(CONNECT_STRING_REQUIREMENT + " (without blanks)");
    }

    public IllegalArgumentException badChroot(String chroot, IllegalArgumentException why) {
        return new IllegalArgumentException(CONNECT_STRING_REQUIREMENT + "; the chroot '" + chroot
                + "' is not a valid path: " + why.getMessage(), why);
    }

    /** @param problem what is wrong with the host, phrased to follow it ("is empty", "has no host") */
    public IllegalArgumentException badZooKeeperHost(String host, String problem) {
        return new IllegalArgumentException(CONNECT_STRING_REQUIREMENT + "; '" + host + "' " + problem);
    }

    public IllegalArgumentException ownersAndEpochsDiffer() {
        return new IllegalArgumentException("owners and epochs differ in length");
    }

    public IllegalArgumentException notASlotAssignment(String magic) {
        return new IllegalArgumentException("not an RMQ slot assignment (expected a first line '" + magic + "')");
    }

    public IllegalArgumentException malformedSlotAssignment(RuntimeException why) {
        return new IllegalArgumentException("malformed RMQ slot assignment: " + why.getMessage(), why);
    }

    public IllegalArgumentException unexpectedAssignmentLine(String key, String line) {
        return new IllegalArgumentException("expected '" + key + " ...', found '" + line + "'");
    }

    // ---- the admin API

    public IllegalArgumentException emptyContentSelection() {
        return new IllegalArgumentException("a content selection needs a non-empty text");
    }

    public IllegalArgumentException pageLimitBelowOne(int limit) {
        return new IllegalArgumentException("a page needs a limit of at least 1, was " + limit);
    }

    public IllegalArgumentException badDeadCursor(int slot, long offset, long maxOffset) {
        return new IllegalArgumentException("a dead-queue cursor needs slot >= 0 and an offset from 0 to " + maxOffset
                + ", was " + slot + "/" + offset);
    }

    public IllegalArgumentException malformedDeadCursor(String text) {
        return new IllegalArgumentException("a dead-queue cursor is <slot>:<offset>, e.g. 3:100, was '" + text + "'");
    }
}
