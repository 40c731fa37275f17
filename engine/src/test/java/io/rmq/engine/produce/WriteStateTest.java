package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.rmq.engine.redis.RedisUnavailableException;

/** How a send's failure tells whether the message may have been written. */
class WriteStateTest {

    @Test
    void aCallRefusedBeforeItWasWrittenOrAnsweredWithAnErrorWroteNothing() {
        assertThat(WriteState.ofCallFailure(new RedisUnavailableException("Currently not connected")))
                .isEqualTo(WriteState.NOT_WRITTEN);
        assertThat(WriteState.ofCallFailure(new CompletionException(new RedisCommandExecutionException("READONLY x"))))
                .isEqualTo(WriteState.NOT_WRITTEN);
    }

    @Test
    void aCallWhoseReplyWasLostMayHaveWritten() {
        assertThat(WriteState.ofCallFailure(new RedisException("Connection disconnected")))
                .isEqualTo(WriteState.MAYBE_WRITTEN);
        assertThat(WriteState.ofCallFailure(new RedisException(new IOException("Connection reset by peer"))))
                .isEqualTo(WriteState.MAYBE_WRITTEN);
        assertThat(WriteState.ofCallFailure(new RedisCommandTimeoutException("timed out")))
                .isEqualTo(WriteState.MAYBE_WRITTEN);
    }

    @Test
    void aSendFailureCarriesItsStateThroughWrappingAndAFailureWithoutOneWroteNothing() {
        SendFailedException lost = SendFailedException.of(new RedisException("Connection closed"), "t");
        assertThat(lost.writeState()).isEqualTo(WriteState.MAYBE_WRITTEN);
        assertThat(lost).hasMessageStartingWith("RMQ-0373 A send to topic 't' was written to Redis, but its reply"
                + " was lost (Connection closed)");
        assertThat(WriteState.of(new IllegalStateException("RMQ-2105 ...", new CompletionException(lost))))
                .isEqualTo(WriteState.MAYBE_WRITTEN);
        assertThat(WriteState.of(new DurabilityException("t", 0, 1, 1000))).isEqualTo(WriteState.WRITTEN_UNCONFIRMED);
        assertThat(WriteState.of(new IllegalArgumentException("bad metadata"))).isEqualTo(WriteState.NOT_WRITTEN);
        assertThat(SendFailedException.of(new RedisUnavailableException("down"), "t")).hasMessage("down")
                .extracting(SendFailedException::writeState).isEqualTo(WriteState.NOT_WRITTEN);
    }
}
