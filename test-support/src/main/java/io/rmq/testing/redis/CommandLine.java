package io.rmq.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * What the fixtures do around their child processes: run a program to its end ({@code redis-cli --cluster
 * create}, {@code redis-server --version}), poll until a server reaches a state, delete a working directory.
 * Stateless and thread-safe.
 */
public final class CommandLine {

    private CommandLine() {
    }

    /** Runs a command line, returning its output; fails when it exits with an error or prints {@code ERR}. */
    public static String run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0 || out.startsWith("ERR") || out.startsWith("Could not connect")
                    || out.contains("[ERR]")) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Waits until {@code condition} holds, polling every {@code every}, or fails naming {@code what}. A child
     * process has no event to wait on: polling is the only way to see it reach a state.
     */
    public static void waitUntil(String what, Duration timeout, Duration every, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not reached within " + timeout + ": " + what);
            }
            try {
                Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for: " + what, e);
            }
        }
    }

    /** {@link #waitUntil(String, Duration, Duration, BooleanSupplier)} every 100 ms. */
    public static void waitUntil(String what, Duration timeout, BooleanSupplier condition) {
        waitUntil(what, timeout, Duration.ofMillis(100), condition);
    }

    /** Deletes a directory and what it holds; a directory left behind is harmless, so failures are ignored. */
    public static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** A new temporary directory whose name starts with {@code prefix}. */
    public static Path tempDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
    }
}
