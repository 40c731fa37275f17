package io.rmq.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rmq.engine.scripts.TopicScripts;
import io.rmq.engine.settlement.Delivery;

class PrefetchBufferTest {

    private static Delivery delivery(int slot, String content) {
        return new Delivery(null, "t", slot, new TopicScripts.PoppedMember(content.getBytes(StandardCharsets.UTF_8),
                "1".getBytes(StandardCharsets.US_ASCII), 1));
    }

    @Test
    void withoutSerialModeMessagesGoOutInPopOrder() {
        PrefetchBuffer b = new PrefetchBuffer(4, false);
        Delivery a1 = delivery(0, "a1");
        Delivery a2 = delivery(0, "a2");
        b.addAll(List.of(a1, a2));

        assertThat(b.poll()).isSameAs(a1);
        b.delivered(a1);
        assertThat(b.poll()).as("no gate").isSameAs(a2);
    }

    @Test
    void inSerialModeASlotsNextMessageWaitsUntilThePreviousIsFinishedWhileOtherSlotsGoOn() {
        PrefetchBuffer b = new PrefetchBuffer(4, true);
        Delivery a1 = delivery(0, "a1");
        Delivery a2 = delivery(0, "a2");
        Delivery c1 = delivery(2, "c1");
        b.addAll(List.of(a1, a2, c1));

        Delivery first = b.poll();
        b.delivered(first);
        Delivery second = b.poll();
        b.delivered(second);

        assertThat(first).isSameAs(a1);
        assertThat(second).as("slot 0 is busy, slot 2 is not").isSameAs(c1);
        assertThat(b.poll()).isNull();
        assertThat(b.finished(a2)).as("not the one in process").isFalse();
        assertThat(b.finished(a1)).isTrue();
        assertThat(b.poll()).isSameAs(a2);
    }

    @Test
    void aLostSlotsMessagesAreTakenOut() {
        PrefetchBuffer b = new PrefetchBuffer(4, true);
        Delivery a1 = delivery(0, "a1");
        Delivery c1 = delivery(2, "c1");
        Delivery a2 = delivery(0, "a2");
        b.addAll(List.of(a1, c1, a2));

        assertThat(b.removeSlot(0)).containsExactly(a1, a2);
        assertThat(b.size()).isEqualTo(1);
        assertThat(b.removeAll()).containsExactly(c1);
        assertThat(b.isEmpty()).isTrue();
    }
}
