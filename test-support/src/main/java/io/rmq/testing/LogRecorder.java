package io.rmq.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what the code under test logs through {@code java.util.logging} below a logger name (for
 * example {@code io.rmq}), for tests that check a logged state such as "waiting for ZooKeeper".
 * Open it before the action and close it after the test. Thread-safe.
 */
public final class LogRecorder extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogRecorder(Logger logger) {
        this.logger = logger; // held strongly: JUL keeps loggers only weakly
        setLevel(Level.ALL);
    }

    /** Starts recording the records of {@code loggerName} and its children. */
    public static LogRecorder record(String loggerName) {
        LogRecorder recorder = new LogRecorder(Logger.getLogger(loggerName));
        recorder.logger.addHandler(recorder);
        return recorder;
    }

    /** The messages recorded so far that contain {@code text}. */
    public List<String> messagesContaining(String text) {
        return records.stream().map(LogRecord::getMessage).filter(m -> m != null && m.contains(text)).toList();
    }

    /** Waits until {@code count} recorded messages satisfy the condition; fails the test otherwise. */
    public List<String> await(String what, Predicate<String> condition, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> matching = records.stream().map(LogRecord::getMessage)
                    .filter(m -> m != null && condition.test(m)).toList();
            if (matching.size() >= count) {
                return matching;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("logged " + matching.size() + " of " + count + " message(s) " + what
                        + " within " + timeout + "; matching so far: " + matching);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
