package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rmq.connector.ChannelSnapshot.State;
import io.rmq.connector.config.Direction;

/** How a channel's facts sum up to its state, and what the state means for each health check. */
class ChannelSnapshotTest {

    private static final String URI = "redis://127.0.0.1:6379";
    private static final IllegalStateException BROKEN = new IllegalStateException("the source broke");

    /** A channel connected to Redis, with the given facts changed by the builder below. */
    private static final class Facts {
        boolean connected = true;
        boolean reached = true;
        boolean coordinated;
        boolean coordinationConnected;
        Throwable failure;
        boolean cancelled;
        boolean stopped;
        boolean throttled;

        ChannelSnapshot snapshot() {
            return new ChannelSnapshot("orders", Direction.INCOMING, "order-timeouts", URI, connected, reached,
                    coordinated, coordinationConnected, failure, cancelled, stopped, throttled);
        }
    }

    @Test
    void aThrottledChannelIsUpPassesEveryCheckAndSaysSo() {
        Facts facts = new Facts();
        facts.throttled = true;
        ChannelSnapshot throttled = facts.snapshot();
        assertThat(throttled.state()).isEqualTo(State.UP);
        assertThat(throttled.isReady()).isTrue();
        assertThat(throttled.isAlive()).isTrue();
        assertThat(throttled.isThrottled()).isTrue();
        assertThat(throttled.describe())
                .isEqualTo("incoming, topic order-timeouts, UP, throttled (waiting for permits of the topic's rate limit)");
    }

    @Test
    void aConnectedChannelIsUpAndPassesEveryCheck() {
        ChannelSnapshot up = new Facts().snapshot();
        assertThat(up.state()).isEqualTo(State.UP);
        assertThat(up.isReady()).isTrue();
        assertThat(up.isAlive()).isTrue();
        assertThat(up.hasStarted()).isTrue();
        assertThat(up.failure()).isEmpty();
        assertThat(up.describe()).isEqualTo("incoming, topic order-timeouts, UP");
    }

    @Test
    void aChannelThatNeverReachedRedisIsConnectingAndHasNotStarted() {
        Facts facts = new Facts();
        facts.connected = false;
        facts.reached = false;
        ChannelSnapshot connecting = facts.snapshot();
        assertThat(connecting.state()).isEqualTo(State.CONNECTING);
        assertThat(connecting.isReady()).isFalse();
        assertThat(connecting.isAlive()).isTrue();
        assertThat(connecting.hasStarted()).isFalse();
    }

    @Test
    void aChannelThatLostRedisIsNotReadyButAliveAndStarted() {
        Facts facts = new Facts();
        facts.connected = false;
        ChannelSnapshot lost = facts.snapshot();
        assertThat(lost.state()).isEqualTo(State.REDIS_UNREACHABLE);
        assertThat(lost.isReady()).isFalse();
        assertThat(lost.isAlive()).isTrue();
        assertThat(lost.hasStarted()).isTrue();
    }

    @Test
    void aCoordinatedChannelNeedsZooKeeperToBeReady() {
        Facts facts = new Facts();
        facts.coordinated = true;
        assertThat(facts.snapshot().state()).isEqualTo(State.ZOOKEEPER_UNREACHABLE);
        assertThat(facts.snapshot().isReady()).isFalse();
        assertThat(facts.snapshot().isAlive()).isTrue();

        facts.coordinationConnected = true;
        assertThat(facts.snapshot().state()).isEqualTo(State.UP);
        assertThat(facts.snapshot().isReady()).isTrue();
    }

    @Test
    void redisUnreachableOutranksZooKeeperUnreachable() {
        Facts facts = new Facts();
        facts.coordinated = true;
        facts.connected = false;
        assertThat(facts.snapshot().state()).isEqualTo(State.REDIS_UNREACHABLE);
    }

    @Test
    void aFailedChannelIsNeitherAliveNorReadyAndSaysWhy() {
        Facts facts = new Facts();
        facts.failure = BROKEN;
        facts.connected = false; // a failure outranks the connection
        ChannelSnapshot failed = facts.snapshot();
        assertThat(failed.state()).isEqualTo(State.FAILED);
        assertThat(failed.isAlive()).isFalse();
        assertThat(failed.isReady()).isFalse();
        assertThat(failed.failure()).contains(BROKEN);
        assertThat(failed.describe()).isEqualTo("incoming, topic order-timeouts, FAILED: the source broke");
    }

    @Test
    void aCancelledChannelIsNotAFailure() {
        Facts facts = new Facts();
        facts.cancelled = true;
        facts.connected = false; // it pops nothing more: Redis does not matter to it
        ChannelSnapshot cancelled = facts.snapshot();
        assertThat(cancelled.state()).isEqualTo(State.CANCELLED);
        assertThat(cancelled.isAlive()).isTrue();
        assertThat(cancelled.isReady()).isTrue();
    }

    @Test
    void aStoppedChannelIsNotReadyWhateverElseHappened() {
        Facts facts = new Facts();
        facts.stopped = true;
        facts.failure = BROKEN;
        ChannelSnapshot stopped = facts.snapshot();
        assertThat(stopped.state()).isEqualTo(State.STOPPED);
        assertThat(stopped.isReady()).isFalse();
        assertThat(stopped.isAlive()).isTrue();
    }
}
