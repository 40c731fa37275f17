package io.rmq.admin.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The body that names a pending message: its content as text or Base64, and its slot basis. */
class PendingMessageRequestTest {

    @Test
    void contentAsTextWithASlotBasis() {
        PendingMessageRequest request = PendingMessageRequest.read("{\"content\":\"close-unpaid:o-7\",\"slotBasis\":\"o-7\"}");
        assertThat(request.content()).isEqualTo("close-unpaid:o-7".getBytes(StandardCharsets.UTF_8));
        assertThat(request.slotBasis()).isEqualTo("o-7");
    }

    @Test
    void contentAsBase64WithoutASlotBasis() {
        PendingMessageRequest request = PendingMessageRequest.read("{\"contentBase64\":\"AP8K\"}");
        assertThat(request.content()).containsExactly(0, 0xff, '\n');
        assertThat(request.slotBasis()).as("routed by its content").isNull();
    }

    @Test
    void exactlyOneContent() {
        String expected = "RMQ-0906 Give the message's content as exactly one of 'content' (UTF-8 text) and 'contentBase64' (Base64)";
        assertThatThrownBy(() -> PendingMessageRequest.read("")).hasMessage(expected);
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"slotBasis\":\"o-7\"}")).hasMessage(expected);
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"content\":\"a\",\"contentBase64\":\"YQ==\"}")).hasMessage(expected);
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"content\":\"\"}")).hasMessage("RMQ-0912 'content' must not be empty");
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"contentBase64\":\"%%\"}"))
                .hasMessage("RMQ-0907 'contentBase64' must be Base64 (RFC 4648), was '%%'");
        assertThatThrownBy(() -> PendingMessageRequest.read("{\"content\":\"a\",\"slot\":3}"))
                .hasMessage("RMQ-0903 Unknown member 'slot' in the request body; known: content, contentBase64, slotBasis");
    }
}
