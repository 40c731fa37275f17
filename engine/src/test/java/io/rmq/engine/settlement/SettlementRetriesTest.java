package io.rmq.engine.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.redis.RedisUnavailableException;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.LogRecorder;

/**
 * The bounds of {@link SettlementRetries}, with Redis out of reach (every script call fails as while it is
 * unreachable) and a clock the test moves: what is kept, what is given up and said so.
 */
class SettlementRetriesTest {

    private static final ConsumerOptions OPTIONS = ConsumerOptions.builder().prepareTimeout(Duration.ofSeconds(30)).build();

    private final AtomicLong now = new AtomicLong();
    private final TopicScripts unreachable = new TopicScripts(() -> {
        throw new RedisUnavailableException("Redis is not reachable (test)");
    }, new TopicKeys(new TopicDefinition("kept", 4, TopicType.PRIORITY)));

    @Test
    void transientFailuresAreKeptAndScriptErrorsAreNot() {
        assertThat(SettlementRetries.isTransient(new RedisUnavailableException("down"))).isTrue();
        assertThat(SettlementRetries.isTransient(new RedisConnectionException("refused"))).isTrue();
        assertThat(SettlementRetries.isTransient(new RedisException("Currently not connected. Commands are rejected."))).isTrue();
        assertThat(SettlementRetries.isTransient(new RedisCommandExecutionException("CLUSTERDOWN The cluster is down"))).isTrue();
        assertThat(SettlementRetries.isTransient(new RedisCommandExecutionException("READONLY You can't write against a"
                + " read only replica."))).isTrue();
        assertThat(SettlementRetries.isTransient(new RedisCommandExecutionException("ERR Error running script"))).isFalse();
        assertThat(SettlementRetries.isTransient(new IllegalArgumentException("bug"))).isFalse();
    }

    @Test
    void aCommitThatFailsAgainStaysKeptUntilThePrepareTimeoutAndIsThenGivenUpSayingSo() {
        SettlementRetries retries = new SettlementRetries(unreachable, OPTIONS.settlementPolicy(), now::get, 100);
        assertThat(retries.keepCommit(1, members(3), new RedisUnavailableException("down"))).isTrue();

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        retries.retry().toCompletableFuture().join();
        assertThat(retries.keptMembers()).as("failed again: kept").isEqualTo(3);

        try (LogRecorder log = LogRecorder.record("io.rmq")) {
            now.addAndGet(Duration.ofSeconds(21).toNanos());
            retries.retry().toCompletableFuture().join();

            assertThat(retries.keptMembers()).isZero();
            assertThat(log.messagesContaining("RMQ-0123")).singleElement().asString()
                    .contains("commit of 3 message(s) of slot 1 of topic 'kept'")
                    .contains("older than the prepare-timeout of 30000 ms");
        }
    }

    @Test
    void beyondItsBoundTheOldestAreGivenUpSayingSo() {
        SettlementRetries retries = new SettlementRetries(unreachable, OPTIONS.settlementPolicy(), now::get, 5);
        try (LogRecorder log = LogRecorder.record("io.rmq")) {
            retries.keepRollback(0, OPTIONS.settlementPolicy().retryRule(), members(3), "boom", new RedisUnavailableException("down"));
            retries.keepCommit(2, members(3), new RedisUnavailableException("down"));

            assertThat(retries.keptMembers()).isEqualTo(3);
            assertThat(log.messagesContaining("RMQ-0123")).singleElement().asString()
                    .contains("rollback of 3 message(s) of slot 0").contains("more than 5 members are kept");
        }
    }

    @Test
    void aNonTransientFailureIsNotKept() {
        SettlementRetries retries = new SettlementRetries(unreachable, OPTIONS.settlementPolicy(), now::get, 100);

        assertThat(retries.keepCommit(0, members(1), new RedisCommandExecutionException("ERR bad"))).isFalse();
        assertThat(retries.keptMembers()).isZero();
    }

    private static List<byte[]> members(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> ("m" + i).getBytes(StandardCharsets.UTF_8)).toList();
    }
}
