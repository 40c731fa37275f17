package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Where the endpoints' settings come from, and their defaults. */
class AdminSettingsTest {

    @Test
    void offByDefaultOnTheConnectorsRedisAndPrefix() {
        assertThat(AdminSettings.from(config(Map.of())))
                .isEqualTo(new AdminSettings(false, "redis://localhost:6379", ""));
        assertThat(AdminSettings.from(config(Map.of(
                "mp.messaging.connector.smallrye-redis-rmq.redis-uri", "redis://cache:6380",
                "mp.messaging.connector.smallrye-redis-rmq.key-prefix", "shop:"))))
                .isEqualTo(new AdminSettings(false, "redis://cache:6380", "shop:"));
    }

    @Test
    void ownPropertiesWin() {
        assertThat(AdminSettings.from(config(Map.of(
                "rmq.admin.enabled", "true",
                "rmq.admin.redis-uri", "redis://admin:secret@other:6379",
                "rmq.admin.key-prefix", "ops:",
                "mp.messaging.connector.smallrye-redis-rmq.redis-uri", "redis://cache:6380",
                "mp.messaging.connector.smallrye-redis-rmq.key-prefix", "shop:"))))
                .isEqualTo(new AdminSettings(true, "redis://admin:secret@other:6379", "ops:"));
    }

    @Test
    void credentialsComeWithTheUriTheyWereGivenFor() {
        AdminSettings connectors = AdminSettings.from(config(Map.of(
                "mp.messaging.connector.smallrye-redis-rmq.redis-uri", "rediss://cache:6380",
                "mp.messaging.connector.smallrye-redis-rmq.redis-username", "app",
                "mp.messaging.connector.smallrye-redis-rmq.redis-password", "app-secret",
                "mp.messaging.connector.smallrye-redis-rmq.redis-tls-ca-file", "/etc/rmq/ca.pem")));
        assertThat(connectors).isEqualTo(new AdminSettings(false, "rediss://cache:6380", "", "app", "app-secret",
                "/etc/rmq/ca.pem"));
        assertThat(connectors.redisAccess().redisUri().getUsername()).isEqualTo("app");
        assertThat(connectors.toString()).doesNotContain("app-secret");

        AdminSettings own = AdminSettings.from(config(Map.of(
                "rmq.admin.redis-uri", "redis://other:6379",
                "rmq.admin.redis-username", "ops",
                "rmq.admin.redis-password", "ops-secret",
                "mp.messaging.connector.smallrye-redis-rmq.redis-password", "app-secret")));
        assertThat(own).isEqualTo(new AdminSettings(false, "redis://other:6379", "", "ops", "ops-secret", null));
        assertThat(own.toString()).doesNotContain("ops-secret");
    }

    @Test
    void onlyTrueTurnsThemOn() {
        assertThat(AdminSettings.enabled(config(Map.of("rmq.admin.enabled", "true")))).isTrue();
        assertThat(AdminSettings.enabled(config(Map.of("rmq.admin.enabled", "false")))).isFalse();
        assertThat(AdminSettings.enabled(config(Map.of("rmq.admin.enabled", "nonsense")))).isFalse();
    }

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }
}
