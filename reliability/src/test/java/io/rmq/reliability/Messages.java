package io.rmq.reliability;

import java.nio.charset.StandardCharsets;

/**
 * The messages of the scenarios: content {@code <id>|<key>}, unique per message (so nothing merges) and
 * sent with the key as its slot basis, so that messages of one key share a slot.
 */
final class Messages {

    private Messages() {
    }

    static String id(long n) {
        return Long.toString(n);
    }

    static String key(long n, int keys) {
        return "k" + (n % keys);
    }

    static byte[] content(String id, String key) {
        return (id + "|" + key).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code [id, key]} of a content. */
    static String[] parse(byte[] content) {
        String s = new String(content, StandardCharsets.UTF_8);
        int bar = s.indexOf('|');
        return new String[] {s.substring(0, bar), s.substring(bar + 1)};
    }
}
