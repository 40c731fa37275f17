package io.rmq.connector.config;

import io.rmq.connector.RmqCodec;
import java.nio.charset.StandardCharsets;

/** Codec classes named by the {@code codec} attribute in tests; only {@link Upper} is usable. */
final class TestCodecs {

    private TestCodecs() {
    }

    /** A usable codec: upper-cases strings. */
    public static class Upper implements RmqCodec {
        @Override
        public byte[] encode(Object payload) {
            return payload.toString().toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] content) {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    /** Not a codec. */
    public static class NotACodec {
    }

    /** A codec without a no-arg constructor. */
    public static class NeedsArgument extends Upper {
        public NeedsArgument(String argument) {
        }
    }

    /** A codec whose constructor throws. */
    public static class Exploding extends Upper {
        public Exploding() {
            throw new IllegalStateException("boom");
        }
    }

    /** An abstract codec. */
    public abstract static class Abstract implements RmqCodec {
    }
}
