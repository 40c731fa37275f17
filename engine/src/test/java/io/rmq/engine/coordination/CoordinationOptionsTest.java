package io.rmq.engine.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CoordinationOptionsTest {

    @Test
    void defaults() {
        CoordinationOptions o = CoordinationOptions.builder("zk1:2181").build();

        assertThat(o.connectString()).isEqualTo("zk1:2181");
        assertThat(o.root()).isEqualTo("/rmq");
        assertThat(o.sessionTimeout()).isEqualTo(CoordinationOptions.DEFAULT_SESSION_TIMEOUT);
        assertThat(o.connectionTimeout()).isEqualTo(CoordinationOptions.DEFAULT_CONNECTION_TIMEOUT);
        assertThat(o.rebalanceDelay()).isEqualTo(CoordinationOptions.DEFAULT_REBALANCE_DELAY);
    }

    @Test
    void toBuilderKeepsEveryOption() {
        CoordinationOptions o = CoordinationOptions.builder("zk1:2181,zk2:2181/chroot").root("/apps/rmq")
                .sessionTimeout(Duration.ofSeconds(7)).connectionTimeout(Duration.ofSeconds(3))
                .rebalanceDelay(Duration.ZERO).digestCredentials("workers", "pw").build();

        CoordinationOptions copy = o.toBuilder().build();

        assertThat(copy).isEqualTo(o).hasSameHashCodeAs(o).hasToString(o.toString());
        assertThat(copy.root()).isEqualTo("/apps/rmq");
        assertThat(copy.rebalanceDelay()).isZero();
        assertThat(copy.digestUsername()).contains("workers");
        assertThat(copy.sharesSessionWith(o)).isTrue();
        assertThat(copy).isNotEqualTo(o.toBuilder().digestCredentials("workers", "other").build());
    }

    @Test
    void consumersShareASessionWhenEnsembleAndTimeoutsAgree() {
        CoordinationOptions o = CoordinationOptions.builder("zk:2181").build();

        assertThat(o.sharesSessionWith(o.toBuilder().root("/other").rebalanceDelay(Duration.ofSeconds(2)).build())).isTrue();
        assertThat(o.sharesSessionWith(o.toBuilder().sessionTimeout(Duration.ofSeconds(5)).build())).isFalse();
        assertThat(o.sharesSessionWith(CoordinationOptions.builder("zk:2182").build())).isFalse();
        assertThat(o.sharesSessionWith(o.toBuilder().digestCredentials("workers", "pw").build())).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"zk:2181", "zk", "10.0.0.1:2181,10.0.0.2:2181", "[::1]:2181", "zk:2181/apps/rmq", " zk:2181 "})
    void wellFormedConnectStringsAreAccepted(String connect) {
        assertThat(CoordinationOptions.builder(connect).build().connectString()).isEqualTo(connect.trim());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "zk:port", "zk:0", "zk:70000", "zk:2181,", ":2181", "zk 2181", "[::1", "zk:2181/bad/", "zk:2181//x"})
    void malformedConnectStringsAreRefusedSayingWhatIsRequired(String connect) {
        assertThatThrownBy(() -> CoordinationOptions.builder(connect))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a ZooKeeper connect string host:port[,host:port...][/chroot] is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rmq", "/", "/rmq/", "//rmq", "/rmq//x"})
    void aRootMustBeAnAbsolutePathBelowTheTop(String root) {
        assertThatThrownBy(() -> CoordinationOptions.builder("zk:2181").root(root))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("root must be");
    }

    @Test
    void timeoutsAreChecked() {
        CoordinationOptions.Builder b = CoordinationOptions.builder("zk:2181");

        assertThatThrownBy(() -> b.sessionTimeout(Duration.ofMillis(50))).hasMessageContaining("sessionTimeout must be from 100");
        assertThatThrownBy(() -> b.connectionTimeout(Duration.ofDays(30))).hasMessageContaining("connectionTimeout");
        assertThatThrownBy(() -> b.rebalanceDelay(Duration.ofMillis(-1))).hasMessageContaining("rebalanceDelay");
    }
}
