package io.rmq.engine;

import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.testing.RedisProcess;

/**
 * What a message costs Redis end to end, in commands: {@code total_commands_processed} of {@code INFO stats}
 * (a script call counts one, and each command it runs one more), on a {@code redis-server} of the test's own
 * that nothing else talks to. {@value #MESSAGES} messages of 100 bytes go through a 4-slot topic as the
 * engine moves them under load: sends gathered per slot into script calls of up to {@value #SENDS_PER_CALL}
 * messages (as {@code TopicProducer} gathers them), pops of {@value #BATCH} members (the default
 * {@code batch-size}) until a pop comes back short, and each popped batch committed in one call (as
 * {@code Settlement} gathers the commits of a slot). Asserts at most 4 commands per message for each topic
 * type; prints {@code COMMANDS PER MESSAGE ...}, with the time Redis spent in the scripts per message.
 */
class CommandsPerMessageIT {

    private static final int MESSAGES = 3200;
    private static final int SLOTS = 4;
    private static final int SENDS_PER_CALL = 256;
    private static final int BATCH = 32;
    private static final long PREPARE_TIMEOUT_MILLIS = 60_000;

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void sendPopAndCommitCostAtMostFourCommandsPerMessage(TopicType type, @TempDir Path dir) {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false)) {
            RedisClient client = RedisClient.create(RedisURI.create(redis.uri()));
            try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
                ScriptRunner runner = new ScriptRunner(connection.async());
                TopicScripts scripts = new TopicScripts(() -> runner,
                        new TopicKeys(new TopicDefinition("cost", SLOTS, type)));

                long redisNow = redisTimeMillis(redis);
                Reading before = Reading.of(redis);
                send(scripts, type, redisNow);
                Reading sent = Reading.of(redis).since(before);
                long lastDue = type == TopicType.RANGE_MERGE ? redisTimeMillis(redis) + 1 : redisNow;

                // every message due before the pops start, so that none is popped late or twice
                Awaitility.await("every message due").atMost(Duration.ofSeconds(10))
                        .until(() -> type == TopicType.PRIORITY || redisTimeMillis(redis) > lastDue);

                Reading[] popAndCommit = popAndCommit(redis, scripts);
                Costs costs = new Costs(sent, popAndCommit[0], popAndCommit[1]);
                System.out.println("COMMANDS PER MESSAGE " + type + " (" + redis.cli("INFO", "server").lines()
                        .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("") + "): " + costs);
                assertThat(costs.total() / (double) MESSAGES).as("Redis commands per message, end to end")
                        .isLessThanOrEqualTo(4.0);
            } finally {
                client.shutdown();
            }
        }
    }

    /** What Redis counted: commands run ({@code total_commands_processed}) and time spent in scripts (µs). */
    record Reading(long commands, long scriptMicros) {

        /** One {@code INFO all}, which the next reading counts as a command: {@link #since} leaves it out. */
        static Reading of(RedisProcess redis) {
            long commands = -1;
            long micros = 0;
            for (String line : redis.cli("INFO", "all").split("\r?\n")) {
                if (line.startsWith("total_commands_processed:")) {
                    commands = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("cmdstat_evalsha:")) {
                    String usec = line.substring(line.indexOf("usec=") + "usec=".length());
                    micros = Long.parseLong(usec.substring(0, usec.indexOf(',')));
                }
            }
            assertThat(commands).as("total_commands_processed in INFO all").isNotNegative();
            return new Reading(commands, micros);
        }

        Reading since(Reading before) {
            return new Reading(commands - before.commands - 1, scriptMicros - before.scriptMicros);
        }

        Reading plus(Reading other) {
            return new Reading(commands + other.commands, scriptMicros + other.scriptMicros);
        }
    }

    record Costs(Reading send, Reading pop, Reading commit) {
        long total() {
            return send.commands() + pop.commands() + commit.commands();
        }

        @Override
        public String toString() {
            return String.format("send %.3f, pop %.3f, commit %.3f, total %.3f commands per message (%d commands for %d"
                    + " messages); Redis time in the scripts, not asserted: send %.2f, pop %.2f, commit %.2f us per message",
                    send.commands() / (double) MESSAGES, pop.commands() / (double) MESSAGES,
                    commit.commands() / (double) MESSAGES, total() / (double) MESSAGES, total(), MESSAGES,
                    send.scriptMicros() / (double) MESSAGES, pop.scriptMicros() / (double) MESSAGES,
                    commit.scriptMicros() / (double) MESSAGES);
        }
    }

    /** Sends every message, each slot's in calls of up to {@link #SENDS_PER_CALL}. */
    private static void send(TopicScripts scripts, TopicType type, long redisNow) {
        List<List<TopicScripts.Send>> bySlot = new ArrayList<>();
        for (int s = 0; s < SLOTS; s++) {
            bySlot.add(new ArrayList<>());
        }
        for (int i = 0; i < MESSAGES; i++) {
            String value = switch (type) {
                case RANGE_MERGE -> "1";
                case PRIORITY -> Integer.toString(i % 10);
                case FIXED_TIME -> Long.toString(redisNow - MESSAGES + i);
            };
            bySlot.get(i % SLOTS).add(new TopicScripts.Send(value, content(i)));
        }
        for (int s = 0; s < SLOTS; s++) {
            List<TopicScripts.Send> sends = bySlot.get(s);
            for (int from = 0; from < sends.size(); from += SENDS_PER_CALL) {
                List<SendResult> results = await(scripts.send(s, sends.subList(from, Math.min(sends.size(),
                        from + SENDS_PER_CALL))));
                assertThat(results).allSatisfy(r -> assertThat(r.stored()).isTrue());
            }
        }
    }

    /** Pops each slot in batches until a pop comes back short, committing each batch; what the pops and the commits cost. */
    private static Reading[] popAndCommit(RedisProcess redis, TopicScripts scripts) {
        Reading pops = new Reading(0, 0);
        Reading commits = new Reading(0, 0);
        int consumed = 0;
        for (int s = 0; s < SLOTS; s++) {
            while (true) {
                Reading before = Reading.of(redis);
                TopicScripts.PopReply reply = await(scripts.pop(s, BATCH, PREPARE_TIMEOUT_MILLIS, 0, ""));
                pops = pops.plus(Reading.of(redis).since(before));
                if (reply.members().isEmpty()) {
                    break;
                }
                List<byte[]> members = reply.members().stream().map(TopicScripts.PoppedMember::content).toList();
                before = Reading.of(redis);
                assertThat(await(scripts.commit(s, members))).isEqualTo(members.size());
                commits = commits.plus(Reading.of(redis).since(before));
                consumed += members.size();
                if (members.size() < BATCH) {
                    break;
                }
            }
        }
        assertThat(consumed).isEqualTo(MESSAGES);
        return new Reading[] { pops, commits };
    }

    /** A 100-byte message. */
    private static byte[] content(int i) {
        StringBuilder s = new StringBuilder("message-").append(i).append('-');
        while (s.length() < 100) {
            s.append('x');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long redisTimeMillis(RedisProcess redis) {
        String[] time = redis.cli("TIME").split("\n");
        return Long.parseLong(time[0].trim()) * 1000 + Long.parseLong(time[1].trim()) / 1000;
    }
}
