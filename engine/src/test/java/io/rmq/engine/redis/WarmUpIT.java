package io.rmq.engine.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.sync.RedisCommands;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;

/**
 * {@link ScriptRunner#warmUp}, which a consumer calls shortly before a due time it slept for: one {@code PING} when
 * the connection was quiet for the given time, whose reply counts as the connection's last; none when a call got a
 * reply more recently.
 */
@RedisTest
class WarmUpIT {

    private RedisCommands<String, String> sync;
    private ScriptRunner scripts;
    /** The runner's connection, whose last command {@code CLIENT LIST} shows. */
    private long id;

    @BeforeEach
    void setUp(RedisConnections redis) {
        this.sync = redis.sync();
        this.scripts = new ScriptRunner(redis.binary().async());
        this.id = redis.binary().sync().clientId();
    }

    @Test
    void aQuietConnectionGetsOnePingWhoseReplyCountsAsItsLast() {
        long before = scripts.lastReplyNanos();

        scripts.warmUp(0);

        await().atMost(Duration.ofSeconds(10)).until(() -> scripts.lastReplyNanos() != before);
        assertThat(lastCommand()).isEqualTo("ping");
    }

    @Test
    void aConnectionThatGotAReplyWithinTheQuietTimeGetsNone(RedisConnections redis) {
        long before = scripts.lastReplyNanos();
        scripts.warmUp(TimeUnit.HOURS.toNanos(1));

        // Redis 7 names the subcommand, 6.2 does not
        assertThat(lastCommand()).as("the runner counts its creation as its last reply").isIn("client|id", "client");
        // a command after it on the same connection: once answered, a PING sent before would have been too
        redis.binary().sync().echo(new byte[] { 1 });
        assertThat(scripts.lastReplyNanos()).as("no reply came through the runner").isEqualTo(before);
    }

    private String lastCommand() {
        String client = sync.clientList().lines().filter(line -> line.startsWith("id=" + id + " ")).findFirst()
                .orElseThrow();
        return client.replaceAll("^.* cmd=(\\S+).*$", "$1");
    }
}
