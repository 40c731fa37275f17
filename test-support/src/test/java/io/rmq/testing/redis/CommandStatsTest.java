package io.rmq.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class CommandStatsTest {

    /** As Redis 7.0 writes it (subcommands after a bar, failed calls counted apart), with CRLF line ends. */
    private static final String REDIS_7 = "# Commandstats\r\n"
            + "cmdstat_zrange:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0\r\n"
            + "cmdstat_config|resetstat:calls=1,usec=40,usec_per_call=40.00,rejected_calls=0,failed_calls=0\r\n"
            + "cmdstat_evalsha:calls=12,usec=900,usec_per_call=75.00,rejected_calls=0,failed_calls=1\r\n";

    /** As Redis 6.2 writes it. */
    private static final String REDIS_6 = "# Commandstats\n"
            + "cmdstat_wait:calls=7,usec=70,usec_per_call=10.00,rejected_calls=0,failed_calls=0\n"
            + "cmdstat_config:calls=1,usec=40,usec_per_call=40.00,rejected_calls=0,failed_calls=0\n";

    @Test
    void everyCommandWithItsCalls() {
        assertThat(CommandStats.calls(REDIS_7)).containsOnly(
                entry("zrange", 3L),
                entry("config|resetstat", 1L),
                entry("evalsha", 12L));
        assertThat(CommandStats.calls(REDIS_6)).containsOnlyKeys("wait", "config");
    }

    @Test
    void oneCommandsCallsAndZeroForOneNeverRun() {
        assertThat(CommandStats.calls(REDIS_6, "wait")).isEqualTo(7);
        assertThat(CommandStats.calls(REDIS_7, "wait")).isZero();
        assertThat(CommandStats.calls("", "zrange")).isZero();
    }
}
