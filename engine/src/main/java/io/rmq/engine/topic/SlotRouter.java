package io.rmq.engine.topic;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Routes a message to a slot: {@code CRC32(slotBasis) mod slotAmount}, with the standard CRC32 of
 * {@link java.util.zip.CRC32}, so producers in any language compute the same slot. The slot basis
 * is a string the sender gives (its UTF-8 bytes), or the message content when it gives none.
 * Stateless and thread-safe.
 */
public final class SlotRouter {

    private SlotRouter() {
    }

    /** The slot of a message with the given slot basis bytes. */
    public static int slotOf(byte[] basis, int slotAmount) {
        return (int) (crc(basis) % slotAmount);
    }

    /** The CRC32 of the slot basis bytes: its slot under any amount is this value mod the amount. */
    public static long crc(byte[] basis) {
        CRC32 crc = new CRC32();
        crc.update(basis);
        return crc.getValue();
    }

    /** The CRC32 of a message's slot basis when given, else of its content. */
    public static long crc(String slotBasis, byte[] content) {
        return crc(slotBasis == null ? content : slotBasis.getBytes(StandardCharsets.UTF_8));
    }

    /** The slot of a message: its slot basis when given, else its content. */
    public static int slotOf(String slotBasis, byte[] content, int slotAmount) {
        return slotOf(slotBasis == null ? content : slotBasis.getBytes(StandardCharsets.UTF_8), slotAmount);
    }
}
