package io.rmq.engine.topic;

import java.nio.charset.StandardCharsets;

/**
 * A tenant's name as the fair-share layout stores it: its UTF-8 bytes, with {@code {}, {@code }}, {@code %} and control
 * bytes (below 0x20, and 0x7f) written as {@code %XX}, so the name can stand inside a key before the slot's hash tag
 * ({@code tq:<name>{<prefix><topic>_<slot>}}) and as a member of the slot's tenants set. The default tenant is the
 * empty name: its queue is the slot's store queue.
 */
public final class TenantName {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private TenantName() {
    }

    /** The encoded name of {@code tenant}; {@code null} or empty is the default tenant, {@code ""}. */
    public static String encode(String tenant) {
        if (tenant == null || tenant.isEmpty()) {
            return "";
        }
        byte[] raw = tenant.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(raw.length + 8);
        ByteCollector text = new ByteCollector(raw.length);
        for (byte b : raw) {
            int u = b & 0xff;
            if (u < 0x20 || u == 0x7f || u == '{' || u == '}' || u == '%') {
                text.flushTo(out);
                out.append('%').append(HEX[u >> 4]).append(HEX[u & 0xf]);
            } else {
                text.add(b);
            }
        }
        text.flushTo(out);
        return out.toString();
    }

    /** The queue of the tenant with encoded name {@code encoded} in the slot whose store queue is {@code store}. */
    public static String queue(String store, String encoded) {
        return encoded.isEmpty() ? store : "tq:" + encoded + "{" + store + "}";
    }

    /** Bytes of UTF-8 text kept together, so that multi-byte characters are decoded whole. */
    private static final class ByteCollector {
        private final byte[] bytes;
        private int size;

        ByteCollector(int capacity) {
            bytes = new byte[capacity];
        }

        void add(byte b) {
            bytes[size++] = b;
        }

        void flushTo(StringBuilder out) {
            out.append(new String(bytes, 0, size, StandardCharsets.UTF_8));
            size = 0;
        }
    }
}
