package io.rmq.engine.topic;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A topic's state in the registry, as {@code grow_topic.lua} replies.
 *
 * @param recorded  the recorded definition {@code <TYPE>:<amount>}, {@code null} when the topic is not recorded
 * @param target    the amount a growth under way goes to, 0 when none is
 * @param grownFrom the amount the topic had before its first growth, 0 when it never grew
 */
public record TopicGrowthState(String recorded, int target, int grownFrom) {

    public static TopicGrowthState of(List<Object> reply) {
        Object recorded = reply.get(0);
        return new TopicGrowthState(recorded instanceof byte[] r ? new String(r, StandardCharsets.UTF_8) : null,
                number(reply, 1), number(reply, 2));
    }

    private static int number(List<Object> reply, int index) {
        return index < reply.size() && reply.get(index) instanceof byte[] n
                ? Integer.parseInt(new String(n, StandardCharsets.US_ASCII)) : 0;
    }

    /** The recorded amount, 0 when the topic is not recorded or the value is unreadable. */
    int amount() {
        int colon = recorded == null ? -1 : recorded.indexOf(':');
        try {
            return colon < 0 ? 0 : Integer.parseInt(recorded.substring(colon + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The slots to consume: the target while growing, else the recorded amount. */
    public int consumed() {
        return Math.max(amount(), target);
    }
}
