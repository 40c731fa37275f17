package io.rmq.examples.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the benchmark measured on one Redis server: the send and consume phases of the raw baseline and
 * of the connector (tuned and default channels), the lateness phases and the sweeps. Filled in by the
 * main thread as the phases end.
 *
 * @param redis the server, e.g. {@code 7.0.15 (redis-server from the PATH)}
 */
record BenchResults(String redis, List<Row> rows, List<Lateness> lateness, List<SweepPoint> sweep) {

    /** Whose figures a row holds. */
    enum How {
        BASELINE("raw Lettuce"), TUNED("connector, tuned"), DEFAULTS("connector, defaults");

        final String label;

        How(String label) {
            this.label = label;
        }
    }

    /** The phases of a row. */
    enum Phase {
        SEND("send, acked by Redis"),
        CONSUME_ACKED("consume, every ack() completed"),
        CONSUME("consume, every commit in Redis"),
        AT_ONCE("send and consume at once, every commit in Redis");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /**
     * One measured phase.
     *
     * @param settings what was set, e.g. {@code concurrency 4, batch-size 32}
     */
    record Row(Phase phase, How how, String settings, Counters.Phase figures) {
    }

    /**
     * One lateness phase.
     *
     * @param condition       {@code idle} or {@code half load}
     * @param sorted          each message's delivery wall time minus its due time, ms, sorted
     * @param expected        messages sent
     * @param sentWithinMs    how long sending them took
     * @param loadTarget      the background consume rate aimed at (0: none)
     * @param loadPerSecond   the background messages consumed per second while the phase ran
     */
    record Lateness(String condition, long[] sorted, int expected, long sentWithinMs, double loadTarget,
            double loadPerSecond) {

        long percentile(double p) {
            return Benchmark.percentile(sorted, p);
        }
    }

    /**
     * One point of a sweep: consumed and committed per second.
     *
     * @param axis  {@code batch size} or {@code consumers}
     * @param value the batch size or number of consumers
     */
    record SweepPoint(String axis, int value, double connectorPerSecond, double baselinePerSecond) {
    }

    static final String BATCH_AXIS = "batch size";
    static final String CONSUMERS_AXIS = "consumers";

    BenchResults(String redis) {
        this(redis, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    void add(Phase phase, How how, String settings, Counters.Phase figures) {
        rows.add(new Row(phase, how, settings, figures));
    }

    Optional<Row> row(Phase phase, How how) {
        return rows.stream().filter(r -> r.phase() == phase && r.how() == how).findFirst();
    }

    /** The connector's messages per second in {@code phase} divided by the baseline's; NaN when either is missing. */
    double ratio(Phase phase, How how) {
        if (phase == Phase.AT_ONCE) {
            return Double.NaN; // the baseline has no such phase
        }
        Phase baselinePhase = phase == Phase.SEND ? Phase.SEND : Phase.CONSUME;
        return row(phase, how).flatMap(r -> row(baselinePhase, How.BASELINE)
                .map(b -> r.figures().perSecond() / b.figures().perSecond())).orElse(Double.NaN);
    }

    List<SweepPoint> sweep(String axis) {
        return sweep.stream().filter(p -> p.axis().equals(axis)).toList();
    }
}
