package io.rmq.testing;

import java.nio.charset.StandardCharsets;

/** UTF-8 conversions between test strings and the {@code byte[]} keys, arguments and replies of binary connections. */
public final class Bytes {

    private Bytes() {
    }

    /** The UTF-8 bytes of a string. */
    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The UTF-8 bytes of each string, e.g. the {@code keys} of a script call. */
    public static byte[][] utf8Array(String... strings) {
        byte[][] out = new byte[strings.length][];
        for (int i = 0; i < strings.length; i++) {
            out[i] = utf8(strings[i]);
        }
        return out;
    }

    /** A reply element as text: {@code byte[]} decoded as UTF-8, anything else (e.g. {@code Long}) by {@code toString}, {@code null} as is. */
    public static String text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return reply == null ? null : reply.toString();
    }
}
