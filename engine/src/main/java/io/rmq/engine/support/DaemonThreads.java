package io.rmq.engine.support;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Thread factories of the engine: daemon threads (a forgotten engine never keeps a JVM alive) with
 * names that say whose they are ({@code rmq-...}), so a thread dump tells which consumer, topic or
 * engine a thread serves. Stateless.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Threads all named {@code name}. */
    public static ThreadFactory named(String name) {
        return named(name, t -> { });
    }

    /** Threads all named {@code name}; {@code created} is told each new thread (before it starts). */
    public static ThreadFactory named(String name, Consumer<Thread> created) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            created.accept(t);
            return t;
        };
    }

    /** Threads named {@code <prefix>1}, {@code <prefix>2}, ... */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
