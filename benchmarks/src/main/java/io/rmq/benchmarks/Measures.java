package io.rmq.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.rmq.examples.support.Console;

/** What every phase of the benchmarks shares: its payloads, its progress lines and its percentiles. Stateless. */
final class Measures {

    private Measures() {
    }

    /**
     * A payload of {@code bytes} bytes starting with {@code head} (unique heads: nothing merges).
     *
     * <p>Phases compared with each other give their heads the same number of characters before the message's number
     * (the connector's {@code run-<n>-}, the bare client's {@code raw-<n>-} or {@code rw0-<n>-}): both sides pass
     * the payloads through Lua (the connector's scripts, the bare client's {@code raw-pop.lua}), and the Lua of
     * Redis 6.2 hashes a 100-byte string from one byte in four, so where the digits sit decides how many of the
     * payloads share a hash (docs/benchmarks.md).
     */
    static byte[] payload(int bytes, String head) {
        byte[] payload = new byte[bytes];
        Arrays.fill(payload, (byte) 'x');
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(h, 0, payload, 0, Math.min(h.length, payload.length));
        return payload;
    }

    /** A progress line, with the time of day to match it with logs and profiles. */
    static void progress(String format, Object... args) {
        Console.say("%s %s", Console.time(System.currentTimeMillis()), String.format(format, args));
    }

    /** One round of a warm-up, numbered from 1. */
    interface Round {
        void run(int round) throws Exception;
    }

    /** Runs {@code round} once, then again until {@code seconds} have passed since the first began. */
    static void repeatFor(int seconds, Round round) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int n = 0;
        do {
            round.run(++n);
        } while (System.nanoTime() - until < 0);
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
