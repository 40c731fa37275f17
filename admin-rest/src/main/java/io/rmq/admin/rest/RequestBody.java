package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A request body read with a bound: at most {@value #MAX_BYTES} bytes of strict UTF-8 (a malformed byte is
 * refused, not replaced). A larger body is refused with 413 ({@link AdminAnswers.TooLargeException}) as soon as
 * the bound is passed, without reading the rest. Stateless.
 */
final class RequestBody {

    /** The largest body the endpoints read: {@value} bytes (a pending message's content in Base64 fits). */
    static final int MAX_BYTES = 1 << 20;

    private RequestBody() {
    }

    /** The body's text; empty when there is none. */
    static String read(InputStream in) {
        if (in == null) {
            return "";
        }
        try {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new AdminAnswers.TooLargeException(msg.bodyTooLarge(MAX_BYTES));
            }
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw msg.notUtf8();
        } catch (IOException e) {
            throw msg.notAJsonObject("it could not be read"); // the client went away: nobody reads the answer
        }
    }
}
