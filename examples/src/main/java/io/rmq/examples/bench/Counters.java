package io.rmq.examples.bench;

import java.lang.management.ManagementFactory;
import java.util.Map;

import io.rmq.examples.support.ExampleRedis;

/**
 * A snapshot of the counters a phase is measured with: the wall clock, the JVM's CPU time and the
 * bytes its threads allocated, and Redis's commands processed (scripts' inner commands included),
 * script calls ({@code EVALSHA} and {@code EVAL}) and CPU time.
 */
record Counters(long nanos, long jvmCpuNanos, long jvmAllocatedBytes, long redisCommands, long redisScriptCalls,
        double redisCpuSeconds) {

    static Counters take(ExampleRedis redis) {
        Map<String, String> stats = redis.info("stats");
        Map<String, String> commands = redis.info("commandstats");
        Map<String, String> cpu = redis.info("cpu");
        long scripts = calls(commands.get("cmdstat_evalsha")) + calls(commands.get("cmdstat_eval"));
        double redisCpu = Double.parseDouble(cpu.getOrDefault("used_cpu_user", "0"))
                + Double.parseDouble(cpu.getOrDefault("used_cpu_sys", "0"));
        return new Counters(System.nanoTime(), processCpuNanos(), allocatedBytes(),
                Long.parseLong(stats.getOrDefault("total_commands_processed", "0")), scripts, redisCpu);
    }

    /** What happened between {@code earlier} and this snapshot, for {@code messages} messages. */
    Phase since(Counters earlier, long messages) {
        double seconds = (nanos - earlier.nanos) / 1e9;
        return new Phase(messages, seconds,
                (redisCommands - earlier.redisCommands) / (double) messages,
                (redisScriptCalls - earlier.redisScriptCalls) / (double) messages,
                (redisCpuSeconds - earlier.redisCpuSeconds) / seconds,
                (jvmCpuNanos - earlier.jvmCpuNanos) / 1e9 / seconds,
                (jvmCpuNanos - earlier.jvmCpuNanos) / 1e3 / messages,
                jvmAllocatedBytes < 0 || earlier.jvmAllocatedBytes < 0 ? -1
                        : (jvmAllocatedBytes - earlier.jvmAllocatedBytes) / (double) messages);
    }

    /**
     * One measured phase.
     *
     * @param redisCpu                 share of one core Redis used (1.0 = one core busy)
     * @param jvmCpu                   share of one core the JVM used (all threads; up to the core count)
     * @param jvmCpuMicrosPerMessage   JVM CPU time (all threads) per message, in microseconds
     * @param allocatedBytesPerMessage heap bytes the JVM's threads allocated per message (-1 when the JVM
     *                                 cannot tell)
     */
    record Phase(long messages, double seconds, double redisCommandsPerMessage, double scriptCallsPerMessage,
            double redisCpu, double jvmCpu, double jvmCpuMicrosPerMessage, double allocatedBytesPerMessage) {

        double perSecond() {
            return messages / seconds;
        }
    }

    private static long calls(String commandStats) {
        if (commandStats == null) {
            return 0;
        }
        for (String field : commandStats.split(",")) {
            if (field.startsWith("calls=")) {
                return Long.parseLong(field.substring("calls=".length()));
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
