package io.rmq.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.rmq.examples.support.ExampleRedis;

/**
 * A snapshot of the counters a phase is measured with: the wall clock, the JVM's CPU time and the
 * bytes its threads allocated, and Redis's commands processed (scripts' inner commands included),
 * script calls ({@code EVALSHA} and {@code EVAL}) and CPU time.
 *
 * <p>Redis's CPU time is the server process's user + system time ({@code used_cpu_user} +
 * {@code used_cpu_sys} of {@code INFO cpu}: Redis's {@code getrusage(RUSAGE_SELF)}, all its threads, the
 * utime + stime of {@code /proc/<pid>/stat} to the microsecond), so it counts reading requests and
 * writing replies too, not only the commands' own work. The benchmark's own {@code INFO} calls are taken
 * out of both the commands and the CPU time (their {@code INFO commandstats} calls and usec). The usec of
 * {@code INFO commandstats} are not summed instead: a script's usec include those of the commands it calls,
 * which are counted again under their own names.
 *
 * <p>The machine's steal time is the CPU time its hypervisor gave to others while this machine wanted it (the
 * {@code steal} ticks of the {@code cpu} line of {@code /proc/stat}, against all ticks of that line): on a quiet
 * machine it stays near 0; a phase where it is not ran on a machine whose speed moved under it. -1 where
 * {@code /proc/stat} cannot be read.
 */
record Counters(long nanos, long jvmCpuNanos, long jvmAllocatedBytes, long redisCommands, long redisScriptCalls,
        double redisCpuSeconds, MachineTicks machine) {

    static Counters take(ExampleRedis redis) {
        Map<String, String> stats = redis.info("stats");
        Map<String, String> commands = redis.info("commandstats");
        Map<String, String> cpu = redis.info("cpu");
        long scripts = calls(commands.get("cmdstat_evalsha")) + calls(commands.get("cmdstat_eval"));
        String info = commands.get("cmdstat_info");
        double redisCpu = Double.parseDouble(cpu.getOrDefault("used_cpu_user", "0"))
                + Double.parseDouble(cpu.getOrDefault("used_cpu_sys", "0")) - field(info, "usec") / 1e6;
        return new Counters(System.nanoTime(), processCpuNanos(), allocatedBytes(),
                Long.parseLong(stats.getOrDefault("total_commands_processed", "0")) - calls(info), scripts, redisCpu,
                MachineTicks.read());
    }

    /** The same snapshot at another time: the wall clock taken at {@code nanos}, every counter as this one. */
    Counters at(long nanos) {
        return new Counters(nanos, jvmCpuNanos, jvmAllocatedBytes, redisCommands, redisScriptCalls, redisCpuSeconds,
                machine);
    }

    /** The share of the machine's CPU time stolen between {@code earlier} and this snapshot; -1 when unknown. */
    double stealSince(Counters earlier) {
        return machine.stealSince(earlier.machine);
    }

    /**
     * The machine's CPU ticks since it started, from the {@code cpu} line of {@code /proc/stat}: those its hypervisor
     * stole and all of them; both -1 when unknown.
     */
    record MachineTicks(long steal, long all) {

        static final MachineTicks UNKNOWN = new MachineTicks(-1, -1);

        /** The machine's ticks now, or {@link #UNKNOWN} when {@code /proc/stat} cannot be read. */
        static MachineTicks read() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                    if (line.startsWith("cpu ")) {
                        return parse(line);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: unknown
            }
            return UNKNOWN;
        }

        /**
         * The ticks of a {@code cpu} line ({@code cpu user nice system idle iowait irq softirq steal guest
         * guest_nice}): all is the sum of the first eight (guest time is counted in user time already); a line
         * without a steal field is {@link #UNKNOWN}.
         */
        static MachineTicks parse(String line) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 9) {
                return UNKNOWN;
            }
            long all = 0;
            for (int i = 1; i <= 8; i++) {
                all += Long.parseLong(f[i]);
            }
            return new MachineTicks(Long.parseLong(f[8]), all);
        }

        /** The share of the ticks since {@code earlier} that were stolen; -1 when unknown. */
        double stealSince(MachineTicks earlier) {
            if (earlier.steal < 0 || steal < 0 || all <= earlier.all) {
                return -1;
            }
            return (steal - earlier.steal) / (double) (all - earlier.all);
        }
    }

    /** What happened between {@code earlier} and this snapshot, for {@code messages} messages. */
    Phase since(Counters earlier, long messages) {
        double seconds = (nanos - earlier.nanos) / 1e9;
        double redisCpu = Math.max(0, redisCpuSeconds - earlier.redisCpuSeconds);
        return new Phase(messages, seconds,
                (redisCommands - earlier.redisCommands) / (double) messages,
                (redisScriptCalls - earlier.redisScriptCalls) / (double) messages,
                redisCpu / seconds,
                redisCpu * 1e6 / messages,
                (jvmCpuNanos - earlier.jvmCpuNanos) / 1e9 / seconds,
                (jvmCpuNanos - earlier.jvmCpuNanos) / 1e3 / messages,
                jvmAllocatedBytes < 0 || earlier.jvmAllocatedBytes < 0 ? -1
                        : (jvmAllocatedBytes - earlier.jvmAllocatedBytes) / (double) messages,
                stealSince(earlier));
    }

    /**
     * One measured phase.
     *
     * @param redisCpu                 share of one core Redis used (1.0 = one core busy)
     * @param redisCpuMicrosPerMessage Redis's process CPU time (user + system) per message, in microseconds
     * @param jvmCpu                   share of one core the JVM used (all threads; up to the core count)
     * @param jvmCpuMicrosPerMessage   JVM CPU time (all threads) per message, in microseconds
     * @param allocatedBytesPerMessage heap bytes the JVM's threads allocated per message (-1 when the JVM
     *                                 cannot tell)
     * @param steal                    share of the machine's CPU time its hypervisor took (0 on a quiet machine; -1
     *                                 when unknown)
     */
    record Phase(long messages, double seconds, double redisCommandsPerMessage, double scriptCallsPerMessage,
            double redisCpu, double redisCpuMicrosPerMessage, double jvmCpu, double jvmCpuMicrosPerMessage, double allocatedBytesPerMessage,
            double steal) {

        double perSecond() {
            return messages / seconds;
        }
    }

    private static long calls(String commandStats) {
        return field(commandStats, "calls");
    }

    /** The integer field {@code name} of an {@code INFO commandstats} value ({@code calls=3,usec=120,...}); 0 if absent. */
    static long field(String commandStats, String name) {
        if (commandStats == null) {
            return 0;
        }
        for (String field : commandStats.split(",")) {
            if (field.startsWith(name + "=")) {
                return Long.parseLong(field.substring(name.length() + 1));
            }
        }
        return 0;
    }

    /**
     * Heap bytes allocated by the JVM's threads since it started, those that ended included (HotSpot's
     * {@code getTotalThreadAllocatedBytes}); -1 when the JVM cannot tell.
     */
    private static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
            return threads.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
