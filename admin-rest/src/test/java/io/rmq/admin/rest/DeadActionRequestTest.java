package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.rmq.engine.admin.DeadSelection;

/** The body of a requeue or purge: each selection, the defaults, and every way to get it wrong. */
class DeadActionRequestTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00.123456Z");

    @Test
    void allWithTheDefaultsOfARequeue() {
        DeadActionRequest request = DeadActionRequest.requeue("{\"all\":true}", NOW);
        assertThat(request.selection()).isEqualTo(DeadSelection.all());
        assertThat(request.description()).isEqualTo("all");
        assertThat(request.dryRun()).isFalse();
        assertThat(request.rate()).isEqualTo(DeadActionRequest.DEFAULT_RATE);
    }

    @Test
    void aPurgeHasNoRate() {
        DeadActionRequest request = DeadActionRequest.purge("{\"contains\":\"order-7\",\"dryRun\":true}", NOW);
        assertThat(request.selection()).isEqualTo(new DeadSelection.ContentContains("order-7"));
        assertThat(request.description()).isEqualTo("content contains 'order-7'");
        assertThat(request.dryRun()).isTrue();
        assertThat(request.rate()).isZero();
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"rate\":5}", NOW))
                .hasMessage("RMQ-0903 Unknown member 'rate' in the request body; known: all, members, membersBase64, olderThan,"
                        + " diedBefore, contains, dryRun");
    }

    @Test
    void membersAsTextOrBase64() {
        DeadActionRequest text = DeadActionRequest.requeue("{\"members\":[\"close:1\",\"\u00e9t\u00e9\"],\"rate\":7}", NOW);
        assertThat(((DeadSelection.Members) text.selection()).members())
                .containsExactly("close:1".getBytes(StandardCharsets.UTF_8), "\u00e9t\u00e9".getBytes(StandardCharsets.UTF_8));
        assertThat(text.description()).isEqualTo("2 members");
        assertThat(text.rate()).isEqualTo(7);

        DeadActionRequest binary = DeadActionRequest.purge("{\"membersBase64\":[\"AP8K\"]}", NOW);
        assertThat(((DeadSelection.Members) binary.selection()).members()).containsExactly(new byte[] {0, (byte) 0xff, '\n'});
        assertThat(binary.description()).isEqualTo("1 member");
    }

    @Test
    void olderThanCountsBackFromNowInWholeMilliseconds() {
        assertThat(DeadActionRequest.purge("{\"olderThan\":\"15m\"}", NOW).selection())
                .isEqualTo(DeadSelection.diedBefore(Instant.parse("2026-01-31T11:45:00.123Z")));
        assertThat(DeadActionRequest.purge("{\"olderThan\":\"PT1H30M\"}", NOW).description())
                .isEqualTo("died before 2026-01-31T10:30:00.123Z");
        assertThat(DeadActionRequest.age("olderThan", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DeadActionRequest.age("olderThan", "90S")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DeadActionRequest.age("olderThan", "2h")).isEqualTo(Duration.ofHours(2));
        assertThat(DeadActionRequest.age("olderThan", "7d")).isEqualTo(Duration.ofDays(7));
        assertThat(DeadActionRequest.age("olderThan", "P7D")).isEqualTo(Duration.ofDays(7));
        assertThat(DeadActionRequest.before(NOW, Duration.ofDays(999_999_999))).as("no earlier than the epoch")
                .isEqualTo(Instant.EPOCH);
        for (String bad : new String[] {"", "15", "15 minutes", "-5m", "PT-1H", "1w"}) {
            assertThatThrownBy(() -> DeadActionRequest.age("olderThan", bad)).as(bad)
                    .hasMessageStartingWith("RMQ-0908 'olderThan' must be an age such as 500ms, 90s, 15m, 2h, 7d");
        }
    }

    @Test
    void diedBeforeIsAnIsoTimeWithAnOffset() {
        assertThat(DeadActionRequest.purge("{\"diedBefore\":\"2026-01-31T13:00:00.5+01:00\"}", NOW).selection())
                .isEqualTo(DeadSelection.diedBefore(Instant.parse("2026-01-31T12:00:00.500Z")));
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"diedBefore\":\"2026-01-31T12:00:00\"}", NOW))
                .hasMessage("RMQ-0909 'diedBefore' must be an ISO-8601 time with an offset, such as 2025-01-31T12:00:00Z"
                        + " (years 1970 to 9999), was '2026-01-31T12:00:00'");
    }

    @Test
    void exactlyOneSelection() {
        assertThatThrownBy(() -> DeadActionRequest.requeue("", NOW))
                .hasMessage("RMQ-0905 Give exactly one selection of all, members, membersBase64, olderThan, diedBefore,"
                        + " contains; given: none");
        assertThatThrownBy(() -> DeadActionRequest.requeue("{\"dryRun\":true,\"contains\":null}", NOW))
                .as("null is absent").hasMessageEndingWith("given: none");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"olderThan\":\"1h\"}", NOW))
                .hasMessageEndingWith("given: all, olderThan");
    }

    @Test
    void valuesOfTheWrongShapeAreRefused() {
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":false}", NOW))
                .hasMessage("RMQ-0904 'all' must be true (every dead message); give another selection instead");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":\"yes\"}", NOW)).hasMessageStartingWith("RMQ-0904 'all'");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"dryRun\":\"true\"}", NOW))
                .hasMessage("RMQ-0904 'dryRun' must be true or false");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":[]}", NOW))
                .hasMessage("RMQ-0904 'members' must be a non-empty array of strings");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":\"close:1\"}", NOW))
                .hasMessage("RMQ-0904 'members' must be a non-empty array of strings");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":[\"a\",\"\"]}", NOW))
                .hasMessage("RMQ-0904 'members' must be a non-empty array of non-empty strings");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"membersBase64\":[\"not base64!\"]}", NOW))
                .hasMessage("RMQ-0907 'membersBase64' must be Base64 (RFC 4648), was 'not base64!'");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"contains\":\"\"}", NOW))
                .hasMessage("RMQ-0912 'contains' must not be empty");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"olderThan\":15}", NOW))
                .hasMessage("RMQ-0904 'olderThan' must be a string");
    }

    @Test
    void theRateIsAWholeNumberInItsRange() {
        assertThat(DeadActionRequest.requeue("{\"all\":true,\"rate\":1000000}", NOW).rate()).isEqualTo(1_000_000);
        for (String bad : new String[] {"0", "-1", "1.5", "1000001", "\"10\"", "99999999999"}) {
            assertThatThrownBy(() -> DeadActionRequest.requeue("{\"all\":true,\"rate\":" + bad + "}", NOW)).as(bad)
                    .hasMessage("RMQ-0910 'rate' must be a whole number from 1 to 1000000, was '" + bad + "'");
        }
    }

    @Test
    void theBodyIsOneJsonObjectWithKnownMembersOnly() {
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"dryrun\":true}", NOW))
                .as("a misspelt dryRun must not purge for real")
                .hasMessageStartingWith("RMQ-0903 Unknown member 'dryrun' in the request body");
        assertThatThrownBy(() -> DeadActionRequest.purge("[{\"all\":true}]", NOW))
                .hasMessage("RMQ-0902 The request body must be a JSON object: it is array");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":", NOW))
                .hasMessageStartingWith("RMQ-0902 The request body must be a JSON object: ");
        assertThatThrownBy(() -> DeadActionRequest.purge("all=true", NOW))
                .hasMessageStartingWith("RMQ-0902 The request body must be a JSON object: ");
    }
}
