package io.rmq.engine.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which Redis versions {@link RedisTopology} takes as too old for the scripts (RMQ-0430): before 6.2. */
class RedisTopologyTest {

    @ParameterizedTest
    @CsvSource({
            "5.0.14, true",
            "6.0.16, true",
            "6.1.0, true",
            "6.2.0, false",
            "6.2.11, false",
            "7.0.15, false",
            "7.2.4, false",
            "10.0.0, false",
            "'', false", // not read (an ACL without INFO): taken as recent enough
            "unknown, false"
    })
    void aServerBefore62IsTooOld(String version, boolean tooOld) {
        assertThat(RedisTopology.isOlderThanRequired(version)).isEqualTo(tooOld);
    }
}
