package io.rmq.engine.schedule;

import static io.rmq.engine.EngineFixture.register;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.scripts.TickStatus;
import io.rmq.engine.scripts.TopicScripts.TickMode;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Recurring schedules against a real Redis: several engines (as application instances) run one schedule and each
 * tick is sent once; missed ticks follow the policy once; pause, resume and remove through the admin API.
 */
@RedisTest
class SchedulesIT {

    static final Duration WAIT = Duration.ofSeconds(30);

    EngineFixture fx;
    RmqAdmin admin;
    String prefix;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void setUp(RedisTestServer redis) {
        String uri = uri(redis);
        fx = fixture(uri);
        admin = RmqAdmin.connect(uri);
        prefix = "sched" + System.nanoTime() + ":";
    }

    String uri(RedisTestServer redis) {
        return redis.uri();
    }

    EngineFixture fixture(String uri) {
        return new EngineFixture(uri);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        admin.close();
        fx.close();
    }

    @Test
    void threeInstancesSendEachTickOnce() {
        RmqEngine first = fx.client();
        TopicKeys keys = register(first, new TopicDefinition("beat", 4, TopicType.FIXED_TIME, prefix));
        ScheduleDefinition beat = define(first, "beat", keys, ScheduleTiming.every("beat", "PT1S", "every"),
                MissedPolicy.SKIP, null);
        List<Double> ticks = new CopyOnWriteArrayList<>();
        TopicConsumer consumer = first.consumer(keys, ConsumerOptions.builder().build(), "beat-reader");
        toClose.add(consumer);
        consumer.start(d -> {
            ticks.add(d.score());
            d.commit();
        });
        consumer.request(1_000_000);
        List<ScheduleRunner> runners = new ArrayList<>();
        for (RmqEngine engine : List.of(first, fx.client(), fx.client())) {
            runners.add(engine.runSchedules(prefix, Set.of("beat")));
        }
        await().atMost(WAIT).until(() -> ticks.size() >= 5);
        runners.forEach(ScheduleRunner::close);
        long ticked = counted(keys, beat, "ticked");
        await().atMost(WAIT).until(() -> ticks.size() == ticked);

        assertThat(ticks).doesNotHaveDuplicates().isSorted();
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("one tick a second, none lost").isEqualTo(1000.0);
        }
        assertThat(counted(keys, beat, "merged")).isZero();
    }

    @Test
    void missedTicksAreSkippedOnceClusterWide() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("hourly", 2, TopicType.FIXED_TIME, prefix));
        ScheduleDefinition hourly = define(engine, "hourly", keys, ScheduleTiming.every("hourly", "PT1H", "every"),
                MissedPolicy.SKIP, null);
        long latest = missThreeHours(keys, hourly);

        startThreeInstances("hourly");

        await().atMost(WAIT).until(() -> lastTick(keys, hourly) == latest);
        assertThat(fx.redis().exists(keys.slot(hourly.slot()).store())).isZero();
        assertThat(counted(keys, hourly, "ticked")).isZero();
    }

    @Test
    void missedTicksGiveOneCatchUpClusterWide() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("hourly", 2, TopicType.FIXED_TIME, prefix));
        ScheduleDefinition hourly = define(engine, "hourly", keys, ScheduleTiming.every("hourly", "PT1H", "every"),
                MissedPolicy.CATCH_UP, null);
        long latest = missThreeHours(keys, hourly);

        startThreeInstances("hourly");

        await().atMost(WAIT).until(() -> lastTick(keys, hourly) == latest);
        await().atMost(WAIT).until(() -> counted(keys, hourly, "ticked") == 1);
        assertThat(fx.redis().zrangeWithScores(keys.slot(hourly.slot()).store(), 0, -1))
                .singleElement().satisfies(m -> assertThat(m.getScore()).isEqualTo((double) latest));
    }

    @Test
    void aPausedScheduleSendsNothingAndResumesWithItsNextTick() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("paused", 2, TopicType.PRIORITY, prefix));
        ScheduleDefinition paused = define(engine, "paused", keys, ScheduleTiming.every("paused", "PT1S", "every"),
                MissedPolicy.CATCH_UP, "7");
        toClose.add(engine.runSchedules(prefix, Set.of("paused")));
        await().atMost(WAIT).until(() -> counted(keys, paused, "ticked") >= 1);

        ScheduleInfo info = admin.pauseSchedule(prefix, "paused");
        assertThat(info.paused()).isTrue();
        long ticked = counted(keys, paused, "ticked");
        await().during(Duration.ofMillis(2_500)).atMost(WAIT).until(() -> counted(keys, paused, "ticked") == ticked);

        assertThat(admin.resumeSchedule(prefix, "paused").paused()).isFalse();
        await().atMost(WAIT).until(() -> counted(keys, paused, "ticked") == ticked + 1);
        assertThat(admin.schedules(prefix)).singleElement().satisfies(s -> {
            assertThat(s.definition()).isEqualTo(paused);
            assertThat(s.paused()).isFalse();
            assertThat(s.nextTick()).isPresent();
        });
        // a PRIORITY tick merges into the pending one: one member, scored with the priority
        assertThat(fx.redis().zscore(keys.slot(paused.slot()).store(), "paused")).isEqualTo(7.0);
    }

    @Test
    void aRemovedScheduleStopsInEveryInstance() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("gone", 2, TopicType.RANGE_MERGE, prefix));
        ScheduleDefinition gone = define(engine, "gone", keys, ScheduleTiming.every("gone", "PT1S", "every"),
                MissedPolicy.SKIP, "60000");
        List<ScheduleRunner> runners = startThreeInstances("gone");
        await().atMost(WAIT).until(() -> counted(keys, gone, "ticked") >= 1);

        admin.removeSchedule(prefix, "gone");

        await().atMost(WAIT).until(() -> runners.stream().allMatch(r -> r.running().isEmpty()));
        assertThat(admin.schedules(prefix)).isEmpty();
        assertThat(fx.redis().exists(keys.scheduleState(gone.slot(), "gone"))).isZero();
        assertThatThrownBy(() -> admin.pauseSchedule(prefix, "gone")).hasMessageStartingWith("RMQ-0548 No schedule 'gone'");
    }

    @Test
    void theScriptRecordsEachTickOnceAndRefusesTicksAheadOfRedis() {
        RmqEngine engine = fx.client();
        TopicKeys keys = register(engine, new TopicDefinition("direct", 2, TopicType.FIXED_TIME, prefix));
        ScheduleDefinition direct = define(engine, "direct", keys, ScheduleTiming.every("direct", "PT1S", "every"),
                MissedPolicy.SKIP, null);
        Schedules schedules = engine.schedules();
        long tick = direct.timing().latest(System.currentTimeMillis()) + 1_000;
        await().atMost(WAIT).until(() -> System.currentTimeMillis() > tick + 50);

        assertThat(status(schedules, direct, tick, TickMode.DUE)).isEqualTo(TickStatus.SENT);
        assertThat(status(schedules, direct, tick, TickMode.DUE)).isEqualTo(TickStatus.ALREADY);
        assertThat(status(schedules, direct, tick, TickMode.START)).isEqualTo(TickStatus.ALREADY);
        assertThat(status(schedules, direct, tick + 3_600_000, TickMode.DUE)).isEqualTo(TickStatus.EARLY);
        schedules.remove(prefix, "direct", java.time.Instant.now()).toCompletableFuture().join();
        assertThat(status(schedules, direct, tick + 1_000, TickMode.DUE)).isEqualTo(TickStatus.REMOVED);
    }

    List<ScheduleRunner> startThreeInstances(String topic) {
        List<ScheduleRunner> runners = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ScheduleRunner r = fx.client().runSchedules(prefix, Set.of(topic));
            toClose.add(r);
            runners.add(r);
        }
        return runners;
    }

    ScheduleDefinition define(RmqEngine engine, String name, TopicKeys keys, ScheduleTiming timing, MissedPolicy missed,
            String value) {
        ScheduleDefinition d = new ScheduleDefinition(name, keys.topic(), name.getBytes(StandardCharsets.UTF_8), null,
                timing, missed, value);
        return engine.schedules().define(d).toCompletableFuture().join();
    }

    /** Moves the schedule's last tick three hours back, as if nothing had run it since: returns the latest tick now. */
    private long missThreeHours(TopicKeys keys, ScheduleDefinition d) {
        long now = System.currentTimeMillis();
        fx.redis().hset(keys.scheduleState(d.slot(), d.name()), "last", Long.toString(now - 3 * 3_600_000L));
        return d.timing().latest(now);
    }

    long lastTick(TopicKeys keys, ScheduleDefinition d) {
        return Long.parseLong(fx.redis().hget(keys.scheduleState(d.slot(), d.name()), "last"));
    }

    long counted(TopicKeys keys, ScheduleDefinition d, String field) {
        String value = fx.redis().hget(keys.slot(d.slot()).counters(), field);
        return value == null ? 0 : Long.parseLong(value);
    }

    private static TickStatus status(Schedules schedules, ScheduleDefinition d, long tick, TickMode mode) {
        return schedules.tick(d, tick, d.timing().previous(tick), mode).toCompletableFuture().join().status();
    }
}
