package io.rmq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

class DashboardSettingsTest {

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    @Test
    void offUnderTheDefaultPathUnlessConfigured() {
        DashboardSettings settings = DashboardSettings.from(config(Map.of()));

        assertThat(settings).isEqualTo(new DashboardSettings(false, "/rmq/dashboard", "/rmq/admin", Duration.ofSeconds(5),
                Duration.ofMinutes(15)));
    }

    @Test
    void readsEverySetting() {
        DashboardSettings settings = DashboardSettings.from(config(Map.of("rmq.dashboard.enabled", "true",
                "rmq.dashboard.path", "/ops/queues", "rmq.dashboard.admin-path", "/ops/rmq/admin",
                "rmq.dashboard.sample-seconds", "2", "rmq.dashboard.history-minutes", "60")));

        assertThat(settings).isEqualTo(new DashboardSettings(true, "/ops/queues", "/ops/rmq/admin", Duration.ofSeconds(2),
                Duration.ofMinutes(60)));
    }

    @Test
    void aValueThatCannotBeUsedIsNamedWithWhatIsAllowed() {
        assertThatThrownBy(() -> DashboardSettings.from(config(Map.of("rmq.dashboard.path", "/rmq/dashboard/"))))
                .hasMessageStartingWith("RMQ-0980 rmq.dashboard.path='/rmq/dashboard/' cannot be used: a path such as");
        assertThatThrownBy(() -> DashboardSettings.from(config(Map.of("rmq.dashboard.path", "/a/*"))))
                .hasMessageContaining("rmq.dashboard.path='/a/*'");
        assertThatThrownBy(() -> DashboardSettings.from(config(Map.of("rmq.dashboard.enabled", "yes"))))
                .hasMessage("RMQ-0980 rmq.dashboard.enabled='yes' cannot be used: true or false");
        assertThatThrownBy(() -> DashboardSettings.from(config(Map.of("rmq.dashboard.sample-seconds", "0"))))
                .hasMessage("RMQ-0980 rmq.dashboard.sample-seconds='0' cannot be used: a whole number from 1 to 3600");
        assertThatThrownBy(() -> DashboardSettings.from(config(Map.of("rmq.dashboard.history-minutes", "ten"))))
                .hasMessageContaining("rmq.dashboard.history-minutes='ten'");
    }
}
