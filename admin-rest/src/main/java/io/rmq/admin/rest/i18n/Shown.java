package io.rmq.admin.rest.i18n;

/**
 * User input as it may appear in a log line or an answer: on one line (control characters, line and
 * paragraph separators and unpaired surrogates written as {@code \}{@code uXXXX}, a backslash as two) and at
 * most {@value #MAX_CHARS} characters of it, the rest counted. So a value can neither forge a line of the
 * audit trail nor make a line or an answer as large as the request. Stateless.
 */
public final class Shown {

    /** The most characters of one value shown: {@value}. */
    public static final int MAX_CHARS = 120;

    private Shown() {
    }

    /** {@code value} escaped and cut to {@value #MAX_CHARS} characters; {@code "null"} for {@code null}. */
    public static String text(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_CHARS) + 16);
        int i = 0;
        for (; i < value.length() && i < MAX_CHARS; i++) {
            char c = value.charAt(i);
            if (i == MAX_CHARS - 1 && Character.isHighSurrogate(c)) {
                break; // its pair would be cut off
            }
            if (c == '\\') {
                out.append("\\\\");
            } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029'
                    || unpaired(value, i)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (i < value.length()) {
            out.append("...(").append(value.length() - i).append(" more characters)");
        }
        return out.toString();
    }

    private static boolean unpaired(String value, int i) {
        char c = value.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(value.charAt(i - 1)));
    }
}
