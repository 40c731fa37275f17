package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.rmq.admin.rest.i18n.Shown;
import io.rmq.engine.admin.DeadSelection;

/** Bodies an attacker would send: each is refused as a bad request (400 or 413), with a short answer. */
class HostileBodyTest {

    private static final Instant NOW = Instant.parse("2026-01-31T12:00:00Z");

    @Test
    void aRepeatedMemberIsRefusedNotTheLastOneTaken() {
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":[\"x\"],\"dryRun\":true,\"dryRun\":false}", NOW))
                .hasMessage("RMQ-0919 The request body gives 'dryRun' twice");
    }

    @Test
    void contentAfterTheObjectIsRefused() {
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"dryRun\":true} {\"dryRun\":false}", NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("RMQ-09");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"all\":true,\"dryRun\":true} x", NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("RMQ-09");
        assertThat(DeadActionRequest.purge(" {\"all\":true,\"dryRun\":true}\n ", NOW).dryRun()).isTrue();
    }

    @Test
    void deepNestingIsRefusedBeforeItIsBuilt() {
        assertThatThrownBy(() -> DeadActionRequest.purge("[".repeat(500_000), NOW))
                .hasMessage("RMQ-0920 The request body nests arrays and objects deeper than " + StrictJson.MAX_DEPTH);
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":" + "[".repeat(20) + "]".repeat(20) + "}", NOW))
                .hasMessageStartingWith("RMQ-0920");
    }

    @Test
    void anUnpairedSurrogateIsRefusedNotReplaced() {
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"contains\":\"a*b\\ud800c\"}", NOW)).hasMessageStartingWith("RMQ-0922");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":[\"\\udc00x\"]}", NOW)).hasMessageStartingWith("RMQ-0922");
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"content\":\"\\ud800\"}")).hasMessageStartingWith("RMQ-0922");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"\\ud800\":true}", NOW)).hasMessageStartingWith("RMQ-0922");
        // a pair is a character like any other
        assertThat(DeadActionRequest.purge("{\"contains\":\"\\ud83d\\ude00\"}", NOW).selection())
                .isEqualTo(DeadSelection.contentContains("\ud83d\ude00"));
    }

    @Test
    void hugeNumbersAndTimesAreOutOfRange() {
        assertThatThrownBy(() -> DeadActionRequest.requeue("{\"all\":true,\"rate\":" + "9".repeat(1_000_000) + "}", NOW))
                .hasMessage("RMQ-0926 The request body holds a number of more than 32 characters");
        assertThatThrownBy(() -> DeadActionRequest.requeue("{\"all\":true,\"rate\":1e999999999}", NOW))
                .hasMessageStartingWith("RMQ-0910 'rate' must be a whole number from 1 to");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"diedBefore\":\"+999999999-12-31T23:59:59Z\"}", NOW))
                .hasMessageStartingWith("RMQ-0909");
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"diedBefore\":\"1969-12-31T23:59:59Z\"}", NOW))
                .hasMessageStartingWith("RMQ-0909");
        assertThat(DeadActionRequest.purge("{\"diedBefore\":\"9999-12-31T23:59:59Z\"}", NOW).selection())
                .isEqualTo(DeadSelection.diedBefore(Instant.parse("9999-12-31T23:59:59Z")));
    }

    @Test
    void aListOfMembersIsBoundedAndEachCountsOnce() {
        String many = "\"m\",".repeat(JsonBody.MAX_ITEMS) + "\"last\"";
        assertThatThrownBy(() -> DeadActionRequest.purge("{\"members\":[" + many + "]}", NOW))
                .hasMessageStartingWith("RMQ-0918 'members' may list at most " + JsonBody.MAX_ITEMS + " items, was "
                        + (JsonBody.MAX_ITEMS + 1));
        DeadActionRequest twice = DeadActionRequest.purge("{\"members\":[\"x\",\"x\",\"x\"]}", NOW);
        assertThat(((DeadSelection.Members) twice.selection()).members()).hasSize(1);
        assertThat(twice.description()).isEqualTo("1 member");
    }

    @Test
    void aBodyIsReadUpToItsBoundInStrictUtf8() {
        byte[] big = new byte[RequestBody.MAX_BYTES + 1];
        assertThatThrownBy(() -> RequestBody.read(new ByteArrayInputStream(big)))
                .isInstanceOf(AdminAnswers.TooLargeException.class).hasMessageStartingWith("RMQ-0917");
        assertThatThrownBy(() -> RequestBody.read(new ByteArrayInputStream(new byte[] {'"', (byte) 0xc3, '"'})))
                .hasMessage("RMQ-0923 The request body must be UTF-8 text");
        assertThat(RequestBody.read(new ByteArrayInputStream("{\"a\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("{\"a\":\"\u00e9\"}");
        assertThat(RequestBody.read(null)).isEmpty();
    }

    @Test
    void aValueShownIsOnOneLineAndBounded() {
        assertThat(Shown.text("a'\r\nb\u2028c\\d")).isEqualTo("a'\\u000d\\u000ab\\u2028c\\\\d");
        assertThat(Shown.text("x\ud800y\udc00")).isEqualTo("x\\ud800y\\udc00");
        assertThat(Shown.text("\ud83d\ude00")).isEqualTo("\ud83d\ude00");
        assertThat(Shown.text("y".repeat(1_000_000))).isEqualTo("y".repeat(Shown.MAX_CHARS) + "...(999880 more characters)");
        assertThat(Shown.text(null)).isEqualTo("null");
        DeadActionRequest forged = DeadActionRequest.purge("{\"contains\":\"x'\\r\\nRMQ-0951 forged\"}", NOW);
        assertThat(forged.description()).isEqualTo("content contains 'x'\\u000d\\u000aRMQ-0951 forged'");
    }
}
