package io.rmq.cli.format;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import io.rmq.cli.i18n.CliMessages;

/**
 * Shows message contents, which are bytes, on one line of a terminal without losing what they are:
 * UTF-8 text as it is, except that a backslash, control characters and line separators are escaped
 * ({@code \\}, {@code \n}, {@code \r}, {@code \t}, {@code \u001b}, ...), and every byte that is not
 * part of valid UTF-8 is shown as {@code \xNN}. Distinct contents therefore never look alike.
 * Stateless and thread-safe.
 */
public final class ContentText {

    /** What ends a shortened text. */
    public static final String ELLIPSIS = "\u2026";

    private ContentText() {
    }

    /** The whole content, escaped. */
    public static String escape(byte[] content) {
        return preview(content, Integer.MAX_VALUE);
    }

    /**
     * The content escaped, at most {@code maxChars} characters (code points) long, an escape never
     * cut in two; a shortened text ends with {@link #ELLIPSIS}.
     */
    public static String preview(byte[] content, int maxChars) {
        Escaped out = new Escaped(maxChars);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(content);
        CharBuffer chars = CharBuffer.allocate(Math.max(16, content.length));
        while (!out.full) {
            CoderResult result = decoder.decode(in, chars, true);
            chars.flip();
            out.text(chars);
            chars.clear();
            if (result.isError()) {
                for (int i = 0; i < result.length(); i++) {
                    out.token(String.format("\\x%02x", in.get() & 0xff));
                }
            } else if (result.isUnderflow()) {
                break;
            }
        }
        return out.toString();
    }

    /** Escapes text that may hold line breaks or control characters (a failure message), at most {@code maxChars} long. */
    public static String escape(String text, int maxChars) {
        Escaped out = new Escaped(maxChars);
        out.text(text);
        return out.toString();
    }

    /** The content as text when it is valid UTF-8, as it is (unescaped). */
    public static Optional<String> utf8(byte[] content) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** Escaped tokens up to a length in characters (code points); a token that does not fit ends the text with an ellipsis. */
    private static final class Escaped {
        private final int maxChars;
        private final StringBuilder text = new StringBuilder();
        private int chars;
        private int lastTokenStart;
        private int lastTokenChars;
        private boolean full;

        Escaped(int maxChars) {
            if (maxChars < 1) {
                throw CliMessages.ex.previewTooShort(maxChars);
            }
            this.maxChars = maxChars;
        }

        void text(CharSequence decoded) {
            decoded.codePoints().forEach(cp -> token(escape(cp)));
        }

        void token(String token) {
            if (full) {
                return;
            }
            int tokenChars = token.codePointCount(0, token.length());
            if ((long) chars + tokenChars > maxChars) {
                // the ellipsis takes one character: drop the last whole token when there is no room left
                if (chars == maxChars) {
                    text.setLength(lastTokenStart);
                    chars -= lastTokenChars;
                }
                text.append(ELLIPSIS);
                full = true;
                return;
            }
            lastTokenStart = text.length();
            lastTokenChars = tokenChars;
            text.append(token);
            chars += tokenChars;
        }

        private static String escape(int cp) {
            switch (cp) {
                case '\\':
                    return "\\\\";
                case '\n':
                    return "\\n";
                case '\r':
                    return "\\r";
                case '\t':
                    return "\\t";
                default:
                    if (Character.isISOControl(cp) || cp == '\u2028' || cp == '\u2029') {
                        return String.format("\\u%04x", cp);
                    }
                    return new String(Character.toChars(cp));
            }
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
