package io.rmq.testing.redis;

import java.util.HashMap;
import java.util.Map;

/**
 * How many times Redis ran each command, from the text of {@code INFO commandstats} (commands run inside scripts
 * count one each; since the server started or the last {@code CONFIG RESETSTAT}).
 */
public final class CommandStats {

    private static final String PREFIX = "cmdstat_";
    private static final String CALLS = "calls=";

    private CommandStats() {
    }

    /** Calls per command, by the lower-case name Redis reports ({@code zrange}, {@code config|resetstat} on Redis 7). */
    public static Map<String, Long> calls(String commandstats) {
        Map<String, Long> calls = new HashMap<>();
        for (String line : commandstats.split("\\r?\\n")) {
            if (line.startsWith(PREFIX)) {
                int from = line.indexOf(CALLS) + CALLS.length();
                calls.put(line.substring(PREFIX.length(), line.indexOf(':')),
                        Long.parseLong(line.substring(from, line.indexOf(',', from))));
            }
        }
        return calls;
    }

    /** Calls of {@code command} (lower case), 0 when Redis has not run it. */
    public static long calls(String commandstats, String command) {
        return calls(commandstats).getOrDefault(command, 0L);
    }
}
