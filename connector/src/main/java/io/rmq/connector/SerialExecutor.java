package io.rmq.connector;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.rmq.connector.i18n.RmqLogging;

/**
 * Runs tasks one at a time, in the order they were submitted, on whichever submitting thread finds
 * it idle: the Reactive Streams "trampoline". The channels use it for the signals that must not
 * overlap: an incoming channel's {@code onNext} and {@code onError} (rule 1.3), an outgoing
 * channel's {@code request} and {@code cancel} (rule 2.7).
 *
 * <p>A task submitted while another runs, by another thread or by the running task itself, is
 * queued and run by the thread that is already draining, after the current task returns. Tasks
 * therefore never nest, which bounds the {@code request -> onNext -> request} recursion (rule 3.3),
 * and one task happens-before the next. No lock is held while a task runs.
 *
 * <p>A task that throws is logged and the next one runs, so that a subscriber breaking rule 2.13
 * (throwing from {@code onNext}) cannot wedge the channel. Thread-safe.
 */
final class SerialExecutor implements Executor {

    private final String owner;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();

    /**
     * Creates an idle executor.
     *
     * @param owner what the signals belong to, for the log, e.g. {@code "incoming channel 'prices'"}
     */
    SerialExecutor(String owner) {
        this.owner = owner;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (pending.getAndIncrement() != 0) {
            return; // the draining thread runs it
        }
        run(tasks.poll());
        drain();
    }

    /**
     * Runs {@code action} on {@code argument} as {@link #execute} would run a task that does so; when
     * the executor is idle it runs at once without a queue entry or a task object, which spares the
     * allocations per signal while signals do not overlap, the usual case.
     */
    <T> void execute(Consumer<? super T> action, T argument) {
        if (pending.get() != 0 || !pending.compareAndSet(0, 1)) {
            execute(() -> action.accept(argument));
            return;
        }
        try {
            action.accept(argument);
        } catch (Throwable e) { // whatever a callback throws, the queue must go on
            RmqLogging.log.reactiveStreamsSignalThrew(owner, e);
        }
        drain();
    }

    /**
     * Runs the tasks queued meanwhile, after the task this thread ran. Each counted task was queued
     * before it was counted, so the queue holds it when its turn comes.
     */
    private void drain() {
        while (pending.decrementAndGet() != 0) {
            run(tasks.poll());
        }
    }

    private void run(Runnable task) {
        try {
            task.run();
        } catch (Throwable e) { // whatever a callback throws, the queue must go on
            RmqLogging.log.reactiveStreamsSignalThrew(owner, e);
        }
    }
}
