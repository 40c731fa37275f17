package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The body of {@code pending/remove} and {@code pending/due-now}: which pending message. Its slot is
 * the one producers route it to: that of its slot basis when it was sent with one, else that of its
 * content. Immutable (do not modify {@link #content()}).
 *
 * <table>
 *   <caption>Members</caption>
 *   <tr><td>{@code "content": "text"}</td><td>the message's content as UTF-8 text, or</td></tr>
 *   <tr><td>{@code "contentBase64": "..."}</td><td>the content in Base64 (binary contents)</td></tr>
 *   <tr><td>{@code "slotBasis": "..."}</td><td>the slot basis it was sent with ({@code withSlotBasis}); optional</td></tr>
 * </table>
 *
 * @param content   the member
 * @param slotBasis the slot basis, or {@code null} when it was routed by its content
 */
record PendingMessageRequest(byte[] content, String slotBasis) {

    static final String CONTENT = "content";
    static final String CONTENT_BASE64 = "contentBase64";
    static final String SLOT_BASIS = "slotBasis";

    /** Reads a body. */
    static PendingMessageRequest read(String body) {
        JsonBody json = JsonBody.parse(body, List.of(CONTENT, CONTENT_BASE64, SLOT_BASIS));
        Optional<String> text = json.nonEmptyString(CONTENT);
        Optional<String> base64 = json.nonEmptyString(CONTENT_BASE64);
        if (text.isPresent() == base64.isPresent()) {
            throw msg.oneContent(CONTENT, CONTENT_BASE64);
        }
        byte[] content = text.map(t -> t.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> JsonBody.base64(CONTENT_BASE64, base64.orElseThrow()));
        return new PendingMessageRequest(content, json.string(SLOT_BASIS).orElse(null));
    }
}
