package io.rmq.engine.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisURI;
import io.rmq.engine.support.UriCredentials;

/** A comma-separated list of Redis Cluster seeds in a URI: parsed, credentials applied to each, masked. */
class RedisSeedsTest {

    @Test
    void seedsWithoutSchemeTakeTheFirstOnesSchemeAndCredentials() {
        assertThat(RedisAccess.seeds("redis://u:pw@a:7000,b:7001, c:7002")).containsExactly("redis://u:pw@a:7000",
                "redis://u:pw@b:7001", "redis://u:pw@c:7002");
        assertThat(RedisAccess.seeds("rediss://a:7000,rediss://b:7001")).containsExactly("rediss://a:7000", "rediss://b:7001");
    }

    @Test
    void oneUriAndSentinelUrisAreOneSeed() {
        assertThat(RedisAccess.seeds("redis://a:6379")).containsExactly("redis://a:6379");
        assertThat(RedisAccess.seeds("redis-sentinel://s1:26379,s2:26379#m")).containsExactly("redis-sentinel://s1:26379,s2:26379#m");
    }

    @Test
    void credentialsGivenApartApplyToEverySeed() {
        RedisAccess access = RedisAccess.builder("redis://a:7000,b:7001").username("app").password("s3cret").build();

        assertThat(access.redisUris()).extracting(RedisURI::getHost).containsExactly("a", "b");
        assertThat(access.redisUris()).allSatisfy(uri -> {
            assertThat(uri.getUsername()).isEqualTo("app");
            assertThat(new String(uri.getPassword())).isEqualTo("s3cret");
        });
        assertThat(access.hasSeeds()).isTrue();
        assertThat(access.toString()).doesNotContain("s3cret");
    }

    @Test
    void theCredentialsOfEverySeedAreMasked() {
        assertThat(UriCredentials.mask("redis://u:pw@a:7000,redis://v:other@b:7001"))
                .isEqualTo("redis://***@a:7000,redis://***@b:7001");
    }

    @Test
    void aMalformedSeedIsRefusedWithoutItsCredentials() {
        assertThatThrownBy(() -> RedisAccess.of("redis://u:pw@a:7000,unknown://u:pw@b:7001")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("pw");
    }
}
