package io.rmq.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;

import org.junit.jupiter.api.Test;

/** A real server: started, stopped as in an outage, started again on its port, closed. */
class EmbeddedRedisIT {

    @Test
    void startsWithoutPersistenceAnswersAndComesBackEmptyOnTheSamePortAfterAStop() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            assertThat(redis.isRunning()).isTrue();
            assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
            assertThat(redis.version()).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(redis.command("INFO", "persistence")).contains("aof_enabled:0");
            assertThat(redis.command("SET", "k", "v")).isEqualTo("OK");
            assertThat(redis.command("GET", "k")).isEqualTo("v");

            redis.stop();
            assertThat(redis.isRunning()).isFalse();
            assertThatThrownBy(() -> redis.command("PING"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("PING on port " + redis.port() + " failed");

            int port = redis.port();
            redis.restart();
            assertThat(redis.isRunning()).isTrue();
            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.command("GET", "k")).as("nothing persisted").isNull();
            assertThat(redis.logFile()).exists();
        }
    }

    @Test
    void closeStopsTheServerAndDeletesItsDirectory() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        redis.close();

        assertThat(redis.isRunning()).isFalse();
        assertThat(Files.exists(redis.logFile().getParent())).isFalse();
        assertThatThrownBy(redis::restart)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        redis.close();
    }

    @Test
    void anErrorReplyFailsTheCommandWithRedisText() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            assertThatThrownBy(() -> redis.command("NO-SUCH-COMMAND"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("failed: ERR unknown command");
        }
    }

    @Test
    void theExternalUriIsTheSystemPropertyStrippedAndBlankMeansNone() {
        String before = System.getProperty(EmbeddedRedis.EXTERNAL_URI);
        try {
            System.setProperty(EmbeddedRedis.EXTERNAL_URI, " redis://cache:6379 ");
            assertThat(EmbeddedRedis.externalUri()).contains("redis://cache:6379");
            System.setProperty(EmbeddedRedis.EXTERNAL_URI, " ");
            assertThat(EmbeddedRedis.externalUri()).isEmpty();
        } finally {
            if (before == null) {
                System.clearProperty(EmbeddedRedis.EXTERNAL_URI);
            } else {
                System.setProperty(EmbeddedRedis.EXTERNAL_URI, before);
            }
        }
    }
}
