package io.rmq.connector.config;

import static io.rmq.connector.config.TestConfigs.channel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rmq.engine.coordination.CoordinationOptions;
import io.rmq.engine.redis.RedisAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The credentials and TLS attributes: how they are read, checked, shared and kept out of every message. */
class SecurityAttributesTest {

    private static final String SECRET = "s3cr3t-Passw0rd";

    @Test
    void credentialsGivenApartFromTheUriAreAppliedAndNeverShown() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("out", "topic-type", "PRIORITY",
                "redis-uri", "redis://127.0.0.1:6390", "redis-username", "app", "redis-password", SECRET));
        RedisAccess access = config.redisAccess();
        assertThat(access.redisUri().getUsername()).isEqualTo("app");
        assertThat(new String(access.redisUri().getPassword())).isEqualTo(SECRET);
        assertThat(access.uri()).isEqualTo("redis://127.0.0.1:6390");
        assertThat(config.toString()).doesNotContain(SECRET).contains("username=app", "password=***");
        assertThat(access.toString()).doesNotContain(SECRET);
    }

    @Test
    void aPasswordIsTakenAsGivenWithoutTrimming() {
        OutgoingChannelConfig config = OutgoingChannelConfig.from(channel("out", "topic-type", "PRIORITY",
                "redis-password", " spaced " + SECRET + " "));
        assertThat(new String(config.redisAccess().redisUri().getPassword())).isEqualTo(" spaced " + SECRET + " ");
    }

    @Test
    void accessesDifferingOnlyInTheirPasswordAreDifferentSoTheyGetTheirOwnEngine() {
        RedisAccess a = RedisAccess.builder("redis://h:1").username("u").password("one").build();
        RedisAccess b = RedisAccess.builder("redis://h:1").username("u").password("two").build();
        assertThat(a).isNotEqualTo(b).isEqualTo(RedisAccess.builder("redis://h:1").username("u").password("one").build());
        assertThat(a.hashCode()).isEqualTo(RedisAccess.builder("redis://h:1").username("u").password("one").build().hashCode());
        assertThat(a.toString()).isEqualTo(b.toString()).doesNotContain("one", "two");
    }

    @Test
    void credentialsInTheUriAndInTheAttributesAreRefusedWithoutShowingEither() {
        List<ConfigProblem> problems = IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY",
                "redis-uri", "redis://app:" + SECRET + "@127.0.0.1:6390", "redis-password", "other-" + SECRET));
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.attribute()).isEqualTo("redis-password");
            assertThat(p.value()).isEqualTo("***");
            assertThat(p.requirement()).contains("either in redis-uri or in redis-username and redis-password");
        });
        assertThat(problems.toString()).doesNotContain(SECRET);
    }

    @Test
    void aUserWithoutPasswordIsRefused() {
        assertThat(IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY", "redis-username", "app")))
                .singleElement().satisfies(p -> assertThat(p.describe())
                        .isEqualTo("attribute 'redis-password' is missing: a password is required when redis-username is set"));
    }

    @Test
    void aMissingOrUnreadableCaFileIsNamed(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing.pem");
        assertThat(IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY", "redis-uri",
                "rediss://localhost:6390", "redis-tls-ca-file", missing.toString()))).singleElement()
                .satisfies(p -> {
                    assertThat(p.attribute()).isEqualTo("redis-tls-ca-file");
                    assertThat(p.requirement()).startsWith("the file does not exist or cannot be read");
                });
        Path notPem = Files.writeString(dir.resolve("ca.pem"), "not a certificate");
        assertThat(OutgoingChannelConfig.validate(channel("out", "topic-type", "PRIORITY", "redis-tls-ca-file",
                notPem.toString()))).singleElement().satisfies(p -> {
                    assertThat(p.attribute()).isEqualTo("redis-tls-ca-file");
                    assertThat(p.requirement()).contains("a readable PEM file of X.509 certificates");
                });
    }

    @Test
    void zooKeeperCredentialsAreAppliedTogetherAndNeverShown() {
        IncomingChannelConfig config = IncomingChannelConfig.from(channel("in", "topic-type", "PRIORITY",
                "zookeeper-connect", "127.0.0.1:2181", "zookeeper-username", "workers", "zookeeper-password", SECRET));
        CoordinationOptions coordination = config.coordination().orElseThrow();
        assertThat(coordination.digestUsername()).contains("workers");
        assertThat(coordination.toString()).doesNotContain(SECRET).contains("workers:***");
        assertThat(config.toString()).doesNotContain(SECRET);
        assertThat(coordination.sharesSessionWith(coordination.toBuilder().digestCredentials("workers", "x").build()))
                .isFalse();

        assertThat(IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY",
                "zookeeper-connect", "127.0.0.1:2181", "zookeeper-password", SECRET))).singleElement()
                .satisfies(p -> assertThat(p.describe()).isEqualTo("attribute 'zookeeper-username' is missing: "
                        + "zookeeper-username and zookeeper-password are required together"));
        assertThat(IncomingChannelConfig.validate(channel("in", "topic-type", "PRIORITY",
                "zookeeper-username", "a:b", "zookeeper-password", SECRET))).singleElement()
                .satisfies(p -> assertThat(p.attribute()).isEqualTo("zookeeper-username"));
    }

    @Test
    void passwordsAreSecretAttributes() {
        assertThat(RmqAttribute.REDIS_PASSWORD.displayValue(SECRET)).isEqualTo("***");
        assertThat(RmqAttribute.ZOOKEEPER_PASSWORD.displayValue(SECRET)).isEqualTo("***");
        assertThat(RmqAttribute.REDIS_USERNAME.isSecret()).isFalse();
        assertThatThrownBy(() -> RedisAccess.builder("redis://u:" + SECRET + "@h:1").password("x").build())
                .isInstanceOf(IllegalArgumentException.class).message().doesNotContain(SECRET);
    }
}
