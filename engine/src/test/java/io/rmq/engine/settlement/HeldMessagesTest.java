package io.rmq.engine.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.scripts.TopicScripts;

/** The list of held messages, without Redis: what is held, what is unfinished, what leaves. */
class HeldMessagesTest {

    private final HeldMessages held = new HeldMessages();

    private static Delivery delivery(String content) {
        return new Delivery(null, "held", 1, new TopicScripts.PoppedMember(content.getBytes(StandardCharsets.UTF_8),
                "1".getBytes(StandardCharsets.US_ASCII), 1));
    }

    @Test
    void heldMessagesAreUnfinishedUntilFinishedAndLeaveWhenTheirCommitIsAnswered() {
        Delivery a = delivery("a");
        Delivery b = delivery("b");
        Delivery c = delivery("c");
        held.addAll(List.of(a, b));
        held.addAll(List.of(c));
        assertThat(held.unfinished()).containsExactlyInAnyOrder(a, b, c);
        assertThat(held.count()).isEqualTo(3);

        b.finish();
        assertThat(held.unfinished()).containsExactlyInAnyOrder(a, c);
        assertThat(held.count()).isEqualTo(2);

        held.removeAll(List.of(b));
        held.removeAll(List.of(b)); // a second answer for it changes nothing
        assertThat(held.unfinished()).containsExactlyInAnyOrder(a, c);

        c.finish();
        a.finish();
        held.removeAll(List.of(c, a));
        assertThat(held.unfinished()).isEmpty();
        assertThat(held.count()).isZero();
    }

    @Test
    void anyMessageCanLeaveFirstMiddleOrLast() {
        List<Delivery> ds = List.of(delivery("1"), delivery("2"), delivery("3"), delivery("4"));
        held.addAll(ds);
        held.removeAll(List.of(ds.get(1)));
        held.removeAll(List.of(ds.get(3)));
        held.removeAll(List.of(ds.get(0)));
        assertThat(held.unfinished()).containsExactly(ds.get(2));
        held.addAll(List.of(ds.get(2))); // already held: not twice
        assertThat(held.count()).isEqualTo(1);
        held.removeAll(List.of(ds.get(2)));
        assertThat(held.unfinished()).isEmpty();
    }
}
