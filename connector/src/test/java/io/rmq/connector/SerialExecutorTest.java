package io.rmq.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class SerialExecutorTest {

    private final SerialExecutor executor = new SerialExecutor("test");

    @Test
    void anActionSubmittedWhileIdleRunsAtOnceOnTheCallingThread() {
        List<String> ran = new ArrayList<>();
        Thread caller = Thread.currentThread();
        executor.execute(s -> ran.add(s + (Thread.currentThread() == caller)), "a");
        assertThat(ran).containsExactly("atrue");
    }

    @Test
    void anActionSubmittedByARunningTaskRunsAfterItInOrderWithoutNesting() {
        List<String> ran = new ArrayList<>();
        AtomicInteger depth = new AtomicInteger();
        executor.execute(first -> {
            depth.incrementAndGet();
            executor.execute(s -> ran.add(s + depth.get()), "b");
            executor.execute(() -> ran.add("c" + depth.get()));
            ran.add(first + depth.get());
            depth.decrementAndGet();
        }, "a");
        assertThat(ran).containsExactly("a1", "b0", "c0");
    }

    @Test
    void anActionThatThrowsDoesNotStopTheNextOnes() {
        List<String> ran = new ArrayList<>();
        executor.execute(s -> {
            executor.execute(ran::add, "after");
            throw new IllegalStateException("broken subscriber");
        }, "a");
        executor.execute(ran::add, "later");
        assertThat(ran).containsExactly("after", "later");
    }

    @Test
    void actionsFromManyThreadsNeverOverlapAndAllRun() throws Exception {
        int threads = 4;
        int each = 20_000;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger count = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            boolean withActions = t % 2 == 0;
            new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    Runnable work = () -> {
                        if (running.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        count.incrementAndGet();
                        running.decrementAndGet();
                    };
                    if (withActions) {
                        executor.execute(Runnable::run, work);
                    } else {
                        executor.execute(work);
                    }
                }
                done.countDown();
            }).start();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> count.get() == threads * each);
        assertThat(overlaps.get()).isZero();
    }
}
