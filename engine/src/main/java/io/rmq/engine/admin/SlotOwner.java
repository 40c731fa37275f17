package io.rmq.engine.admin;

import java.time.Instant;

/**
 * Who owns a slot under serial consumption (ZooKeeper coordination), as recorded in the slot's
 * owner hash by the pop script. Immutable.
 *
 * @param worker the worker id, {@code <consumer>@<host>:<pid>#<random>}
 * @param epoch  the ownership epoch the pop script checks
 * @param since  when the worker claimed the slot (Redis clock)
 */
public record SlotOwner(String worker, long epoch, Instant since) {
}
