package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.ProducerOptions;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.topic.PriorityAging;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisProcess;

/**
 * What a message costs Redis end to end, in commands, through the engine as an application drives it:
 * {@value #MESSAGES} messages of 100 bytes sent by a {@link TopicProducer} with up to {@value #IN_FLIGHT}
 * sends outstanding, then consumed by a {@link TopicConsumer} with the default options (a {@code batch-size}
 * of 128) and unbounded demand, whose listener commits each delivery. The topic has {@value #SLOTS} slots;
 * the {@code redis-server} is the test's own, and nothing else talks to it.
 *
 * <p>Redis counts: {@code total_commands_processed} of {@code INFO} (a script call counts one, and each command
 * it runs one more), less the test's own {@code INFO} reads, for the send phase (every send acked) and the
 * consume phase (from the consumer's creation until every commit completed), so the counts per phase are
 * clean. Both include the engine's background work during the phase (the consumer's safety polls and
 * sweeps, liveness pings, its first pop of every slot); {@value #IDLE_SECONDS} s of idling afterwards, read
 * the same way, shows what that background costs per second and so at most per message over the phases, and
 * with {@value #MESSAGES} messages it is a few thousandths of a command per message: it is counted, not
 * subtracted. Asserts under one command per message end to end for each topic type (the README's claim);
 * the benchmark, with two channels of 128, counts about 0.38.
 *
 * <p>Prints {@code COMMANDS PER MESSAGE <type> ...} with the figures per phase and, not asserted (they depend
 * on the machine), Redis's time per message: the {@code usec} of {@code INFO commandstats} summed over every
 * command but {@code INFO} (a command run by a script counts inside the script's {@code EVALSHA} and again on
 * its own), of the scripts alone ({@code EVALSHA}), and Redis's process CPU ({@code used_cpu_user} plus
 * {@code used_cpu_sys}, which includes the network I/O).
 */
class CommandsPerMessageIT {

    private static final int MESSAGES = 30_000;
    private static final int SLOTS = 16;
    /** Sends outstanding at once, as an outgoing channel's default {@code max-inflight}. */
    private static final int IN_FLIGHT = 1024;
    private static final int IDLE_SECONDS = 3;
    private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(120);

    @ParameterizedTest
    @EnumSource(TopicType.class)
    void sendPopAndCommitCostUnderOneCommandPerMessage(TopicType type, @TempDir Path dir) throws Exception {
        measure(type.name(), type, ProducerOptions.defaults(), ConsumerOptions.builder().build(), dir);
    }

    /**
     * The same with priority aging on (a PRIORITY topic, producer and consumer told of it): the since hash's writes
     * at send, its read after each pop and its deletes at commit.
     */
    @Test
    void priorityAgingCostsAFewCommandsPerCall(@TempDir Path dir) throws Exception {
        PriorityAging aging = PriorityAging.parse("1/10s");
        measure("PRIORITY with priority aging", TopicType.PRIORITY, ProducerOptions.builder().priorityAging(aging).build(),
                ConsumerOptions.builder().priorityAging(aging).build(), dir);
    }

    private void measure(String label, TopicType type, ProducerOptions producerOptions, ConsumerOptions consumerOptions,
            Path dir) throws Exception {
        try (RedisProcess redis = RedisProcess.start(dir, List.of(), false);
                RmqEngine engine = new RmqEngine("redis://" + redis.address()).start()) {
            engine.ready().toCompletableFuture().get(30, TimeUnit.SECONDS);
            TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("cost", SLOTS, type));

            TopicProducer producer = engine.producer(keys, producerOptions);
            // with priority aging, the topic's epoch is read (or fixed) before the sends, not counted with them
            producer.updatePriorityAging(producerOptions.priorityAging()).toCompletableFuture().get(30, TimeUnit.SECONDS);
            Reading beforeSend = Reading.of(redis);
            long sendStart = System.nanoTime();
            send(producer, type);
            long sendNanos = System.nanoTime() - sendStart;
            Reading afterSend = Reading.of(redis);

            long consumeStart = System.nanoTime();
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger committed = new AtomicInteger();
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            try (TopicConsumer consumer = engine.consumer(keys, consumerOptions, "cost")) {
                consumer.start(d -> {
                    delivered.add(new String(d.content(), StandardCharsets.UTF_8));
                    d.commit().whenComplete((v, f) -> {
                        if (f == null) {
                            committed.incrementAndGet();
                        } else {
                            failures.add(f);
                        }
                    });
                });
                consumer.request(Long.MAX_VALUE);
                await("every message consumed and committed").atMost(PHASE_TIMEOUT)
                        .until(() -> committed.get() + failures.size() >= MESSAGES);
                long consumeNanos = System.nanoTime() - consumeStart;
                Reading afterConsume = Reading.of(redis);
                assertThat(failures).as("failed commits").isEmpty();
                assertThat(delivered).as("distinct messages delivered").hasSize(MESSAGES);

                // what the consumer and the engine cost Redis meanwhile with nothing to do, read the same way
                long idleStart = System.nanoTime();
                await().pollDelay(Duration.ofSeconds(IDLE_SECONDS)).atMost(Duration.ofSeconds(IDLE_SECONDS + 5))
                        .until(() -> true);
                Reading afterIdle = Reading.of(redis);
                double idlePerSecond = afterIdle.since(afterConsume).commands() / ((System.nanoTime() - idleStart) / 1e9);

                Costs costs = new Costs(afterSend.since(beforeSend), afterConsume.since(afterSend), sendNanos,
                        consumeNanos, idlePerSecond);
                System.out.println("COMMANDS PER MESSAGE " + label + " (" + redis.cli("INFO", "server").lines()
                        .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("") + "): " + costs);
                assertThat(costs.total() / (double) MESSAGES)
                        .as("Redis commands per message, send, pop and commit (" + costs + ")").isLessThan(1.0);
            }
        }
    }

    /**
     * What Redis counted: commands run ({@code total_commands_processed}), the {@code usec} of
     * {@code INFO commandstats} over every command but {@code INFO} and of {@code EVALSHA} alone, and the
     * process's CPU time (µs).
     */
    record Reading(long commands, long commandMicros, long scriptMicros, long cpuMicros) {

        /** One {@code INFO all}, which the next reading counts as a command: {@link #since} leaves it out. */
        static Reading of(RedisProcess redis) {
            long commands = -1;
            long micros = 0;
            long scriptMicros = 0;
            double cpuSeconds = 0;
            for (String line : redis.cli("INFO", "all").split("\r?\n")) {
                if (line.startsWith("total_commands_processed:")) {
                    commands = Long.parseLong(value(line));
                } else if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                    cpuSeconds += Double.parseDouble(value(line));
                } else if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
                    String usec = line.substring(line.indexOf("usec=") + "usec=".length());
                    long commandMicros = Long.parseLong(usec.substring(0, usec.indexOf(',')));
                    micros += commandMicros;
                    if (line.startsWith("cmdstat_evalsha:")) {
                        scriptMicros = commandMicros;
                    }
                }
            }
            assertThat(commands).as("total_commands_processed in INFO all").isNotNegative();
            return new Reading(commands, micros, scriptMicros, Math.round(cpuSeconds * 1e6));
        }

        Reading since(Reading before) {
            return new Reading(commands - before.commands - 1, commandMicros - before.commandMicros,
                    scriptMicros - before.scriptMicros, cpuMicros - before.cpuMicros);
        }

        private static String value(String line) {
            return line.substring(line.indexOf(':') + 1).trim();
        }
    }

    record Costs(Reading send, Reading consume, long sendNanos, long consumeNanos, double idlePerSecond) {
        long total() {
            return send.commands() + consume.commands();
        }

        @Override
        public String toString() {
            double seconds = (sendNanos + consumeNanos) / 1e9;
            return String.format("send %.3f, consume (pop and commit) %.3f, total %.3f commands per message (%d"
                    + " commands for %d messages; send %.1f s, consume %.1f s); idle %.2f commands per second, at"
                    + " most %.5f per message of the phases' %.1f s; Redis time per message, not asserted: send %s,"
                    + " consume %s, total %s",
                    per(send.commands()), per(consume.commands()), per(total()), total(), MESSAGES, sendNanos / 1e9,
                    consumeNanos / 1e9, idlePerSecond, idlePerSecond * seconds / MESSAGES, seconds, micros(send),
                    micros(consume), micros(new Reading(0, send.commandMicros() + consume.commandMicros(),
                            send.scriptMicros() + consume.scriptMicros(), send.cpuMicros() + consume.cpuMicros())));
        }

        private static double per(long n) {
            return n / (double) MESSAGES;
        }

        private static String micros(Reading r) {
            return String.format("%.2f us in commands (%.2f in scripts), %.2f us CPU", per(r.commandMicros()),
                    per(r.scriptMicros()), per(r.cpuMicros()));
        }
    }

    /** Sends every message with up to {@link #IN_FLIGHT} sends outstanding; each must be stored (none merged). */
    private static void send(TopicProducer producer, TopicType type) {
        Semaphore window = new Semaphore(IN_FLIGHT);
        AtomicInteger stored = new AtomicInteger();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<SendResult>> sends = new ArrayList<>(MESSAGES);
        long dueFrom = Instant.now().toEpochMilli() - MESSAGES;
        for (int i = 0; i < MESSAGES; i++) {
            window.acquireUninterruptibly();
            byte[] content = content(i);
            var send = switch (type) {
                case RANGE_MERGE -> producer.sendInRange(content, Duration.ofMillis(1), null);
                case PRIORITY -> producer.sendWithPriority(content, i % 10, null);
                case FIXED_TIME -> producer.sendAt(content, Instant.ofEpochMilli(dueFrom + i), null);
            };
            sends.add(send.toCompletableFuture().whenComplete((r, f) -> {
                if (f != null) {
                    failures.add(f);
                } else if (r.stored()) {
                    stored.incrementAndGet();
                }
                window.release();
            }));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).exceptionally(f -> null).join();
        assertThat(failures).as("failed sends").isEmpty();
        assertThat(stored).as("sends stored").hasValue(MESSAGES);
    }

    /** A 100-byte message. */
    private static byte[] content(int i) {
        StringBuilder s = new StringBuilder("message-").append(i).append('-');
        while (s.length() < 100) {
            s.append('x');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }
}
