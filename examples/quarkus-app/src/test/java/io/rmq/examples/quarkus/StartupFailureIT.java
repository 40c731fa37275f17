package io.rmq.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * On Quarkus a channel that cannot work makes the application fail to start: the connector refuses it
 * when SmallRye Reactive Messaging creates the channel, as the application starts (there is no CDI
 * portable extension to check every channel before, see docs/quarkus.md). These tests start the packaged
 * example with one channel misconfigured through system properties, and check that it exits with an
 * error naming the channel and what is wrong, without ever serving HTTP.
 */
class StartupFailureIT {

    @Test
    void aMisconfiguredChannelFailsTheStartWithTheConnectorsMessage() {
        try (PackagedApp app = PackagedApp.start("bad-channel", Map.of(),
                // no topic-type (an empty value is no value), and a slot amount that is not a power of two
                "-Dmp.messaging.incoming.tasks.topic-type=",
                "-Dmp.messaging.incoming.tasks.slot-amount=12")) {

            assertThat(app.awaitExit()).as(app.output()).isNotZero();
            assertThat(app.output())
                    .contains("Failed to start application")
                    .contains("RMQ-2001 Channel 'tasks' (incoming): attribute 'topic-type' is missing")
                    .contains("attribute 'slot-amount' = '12' is invalid: a power of two from 1 to 16384 is required")
                    .doesNotContain("Listening on");
        }
    }

    @Test
    void aChannelThatUsesATopicWithAnotherTypeFailsTheStartNamingBothDefinitions() {
        // the outgoing channel tasks-out sends to the PRIORITY topic "tasks" (one slot); its consumer now says FIXED_TIME
        try (PackagedApp app = PackagedApp.start("conflicting-topic", Map.of(), "-Dmp.messaging.incoming.tasks.topic-type=FIXED_TIME")) {

            assertThat(app.awaitExit()).as(app.output()).isNotZero();
            assertThat(app.output())
                    .contains("Failed to start application")
                    .contains("RMQ-2014")
                    .contains("PRIORITY")
                    .contains("FIXED_TIME")
                    .doesNotContain("Listening on");
        }
    }
}
