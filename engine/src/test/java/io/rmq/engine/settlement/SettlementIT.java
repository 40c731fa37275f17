package io.rmq.engine.settlement;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * Commits against a real Redis: those the consumer loop's thread makes while it holds them wait in
 * their slots' batchers until it sends them; those of other threads leave at once.
 */
@RedisTest
class SettlementIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("settle", 4, TopicType.FIXED_TIME, "app:"));
    private static final int SLOT = 1;
    private static final SlotKeys KEYS = TOPIC.slot(SLOT);

    private RedisCommands<String, String> sync;
    private TopicScripts scripts;
    private Settlement settlement;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        ScriptRunner runner = new ScriptRunner(redis.binary().async());
        this.scripts = new TopicScripts(() -> runner, TOPIC);
        ConsumerOptions options = ConsumerOptions.defaults();
        SettlementRetries retries = new SettlementRetries(scripts, options.settlementPolicy());
        HeldMessages held = new HeldMessages();
        this.settlement = new Settlement(scripts, held, retries, options.settlementPolicy(), new EngineEvents() { });
        long at = redis.redisTimeMillis() - 10;
        for (String m : List.of("a", "b", "c", "d")) {
            sync.zadd(KEYS.store(), at, m);
        }
    }

    private List<Delivery> pop(int count) {
        TopicScripts.PopReply reply = await(scripts.pop(SLOT, count, 30_000, 0, null));
        return Delivery.of(settlement, TOPIC.topic().name(), SLOT, reply.members());
    }

    @Test
    void commitsHeldByTheLoopThreadLeaveTogetherWhenItSendsThem() {
        List<Delivery> popped = pop(3);

        settlement.holdCommits();
        popped.forEach(d -> assertThat(d.commit()).isCompleted());
        assertThat(sync.zcard(KEYS.prepare())).as("held: nothing sent yet").isEqualTo(3);

        settlement.sendHeldCommits();
        await().atMost(Duration.ofSeconds(10)).until(() -> sync.zcard(KEYS.prepare()) == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> "3".equals(sync.hget(KEYS.counters(), "acked")));
        assertThat(await(settlement.flushed())).isNull();
    }

    @Test
    void commitsOfOtherThreadsAndAfterTheHoldLeaveAtOnce() throws Exception {
        List<Delivery> popped = pop(2);

        settlement.holdCommits();
        CompletableFuture.runAsync(() -> popped.get(0).commit()).get();
        await().atMost(Duration.ofSeconds(10)).until(() -> sync.zcard(KEYS.prepare()) == 1);
        settlement.sendHeldCommits();

        popped.get(1).commit();
        await().atMost(Duration.ofSeconds(10)).until(() -> sync.zcard(KEYS.prepare()) == 0);
    }

    @Test
    void aStoppingConsumersFlushSendsHeldCommits() {
        List<Delivery> popped = pop(1);

        settlement.holdCommits();
        popped.get(0).commit();
        assertThat(await(settlement.flushed())).isNull();
        assertThat(sync.zcard(KEYS.prepare())).isZero();
        settlement.sendHeldCommits();
    }

    @Test
    void aDeadLetteredDeliveryGoesStraightToTheDeadQueueWithItsReason() {
        List<Delivery> popped = pop(2);

        await(popped.get(0).deadLetter(new IllegalStateException("not for us")));
        await(popped.get(1).rollback(new IllegalStateException("try again")));

        assertThat(sync.zcard(KEYS.dead())).as("first delivery, retries left, yet dead").isEqualTo(1);
        assertThat(sync.zscore(KEYS.dead(), new String(popped.get(0).content()))).isNotNull();
        assertThat(sync.zscore(KEYS.store(), new String(popped.get(1).content()))).as("retried").isNotNull();
        assertThat(sync.hget(KEYS.failures(), new String(popped.get(0).content())))
                .contains("java.lang.IllegalStateException: not for us");
        assertThat(popped.get(0).commit()).as("settled once").isCompleted();
        assertThat(sync.zcard(KEYS.dead())).isEqualTo(1);
    }
}
