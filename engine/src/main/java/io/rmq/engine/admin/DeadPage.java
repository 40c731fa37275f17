package io.rmq.engine.admin;

import java.util.List;
import java.util.Optional;

/**
 * One page of a topic's dead queues, slot after slot, oldest death first within a slot. Immutable.
 *
 * @param messages the page
 * @param next     where the next page starts; empty at the end
 */
public record DeadPage(List<DeadMessage> messages, Optional<DeadCursor> next) {

    public DeadPage {
        messages = List.copyOf(messages);
    }
}
