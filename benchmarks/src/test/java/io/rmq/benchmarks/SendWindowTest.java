package io.rmq.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The benchmark sender's window: full, a sender waits until a quarter of it is answered, then fills it again. */
class SendWindowTest {

    @Test
    void takesRoomWhileThereIsSomeAndRefusesAtOnceWhenFull() throws Exception {
        SendWindow window = new SendWindow(8);
        window.acquire(5);
        window.acquire(3);

        assertThat(window.tryAcquire(1, 0, TimeUnit.NANOSECONDS)).isFalse();
        window.release(1);
        assertThat(window.tryAcquire(1, 0, TimeUnit.NANOSECONDS)).as("a sender that did not wait takes the room").isTrue();
        assertThat(window.unanswered()).isEqualTo(8);
    }

    @Test
    void aWaitingSenderGoesOnOnceAQuarterOfTheWindowIsAnswered() throws Exception {
        SendWindow window = new SendWindow(8);
        window.acquire(8);
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Integer> sender = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            try {
                window.acquire(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return window.unanswered();
        });
        waiting.await();

        window.release(1);
        window.release(1);

        // 6 answered-down (the quarter of 8 is 2), then the sender's own message
        assertThat(sender.get(30, TimeUnit.SECONDS)).isEqualTo(7);
    }

    @Test
    void aGroupWaitsForRoomForAllOfIt() throws Exception {
        SendWindow window = new SendWindow(8);
        window.acquire(7);
        CompletableFuture<Void> group = CompletableFuture.runAsync(() -> {
            try {
                window.acquire(4);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        window.release(3);

        group.get(30, TimeUnit.SECONDS);
        assertThat(window.unanswered()).isEqualTo(8);
        assertThatThrownBy(() -> window.acquire(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("9 messages do not fit a window of 8");
    }

    @Test
    void aTimedWaitGivesUpAndAnInterruptedOneThrows() throws Exception {
        SendWindow window = new SendWindow(2);
        window.acquire(2);
        assertThat(window.tryAcquire(1, 1, TimeUnit.MILLISECONDS)).isFalse();

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                window.acquire(1);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        sender.start();
        sender.interrupt();
        sender.join();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(window.unanswered()).isEqualTo(2);
    }
}
