package io.rmq.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;

/** What the script cost tools ({@link SendScriptCost}, {@link PopScriptCost}) share: filling keys, printing figures. */
final class ScriptCosts {

    private ScriptCosts() {
    }

    /** {@code ZADD}s of 1,000 members each. */
    @SuppressWarnings("unchecked")
    static void zaddAll(RedisCommands<byte[], byte[]> sync, byte[] key, List<ScoredValue<byte[]>> members) {
        for (int from = 0; from < members.size(); from += 1_000) {
            sync.zadd(key, members.subList(from, Math.min(from + 1_000, members.size())).toArray(ScoredValue[]::new));
        }
    }

    /** The median and quartiles of the values: {@code median [p25, p75]}. */
    static String quartiles(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format("%.2f [%.2f, %.2f]", sorted[sorted.length / 2], sorted[sorted.length / 4],
                sorted[3 * sorted.length / 4]);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
