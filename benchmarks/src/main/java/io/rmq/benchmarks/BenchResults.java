package io.rmq.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the benchmark measured on one Redis server: the send and consume phases of the connector (tuned and
 * default channels) and of the bare Lettuce client (at the connector rows' own consumers x batch size, at
 * the best of a search, and as configured for an extra row), the lateness phases, the bare client's search
 * and the sweeps. Filled in by the main thread as the phases end.
 *
 * @param redis  the server, e.g. {@code 7.0.15 (redis-server from the PATH)}
 * @param search the points of the bare client's consumers x batch size search, in the order measured
 * @param paired the rounds of the paired consume comparisons (tuned channels, then the ordinary application's), in the
 *               order measured
 */
record BenchResults(String redis, List<Row> rows, List<Lateness> lateness, List<SweepPoint> sweep,
        List<SearchPoint> search, List<PairedRound> paired) {

    /**
     * One round of a paired consume comparison: the bare client's consume rate at the settings of the connector's
     * channels {@code how} ({@link How#TUNED} or {@link How#ORDINARY}) and those channels', measured one right after
     * the other, and the machine's steal over the round (-1: unknown).
     */
    record PairedRound(How how, double bare, double connector, double steal) {

        double ratio() {
            return connector / bare;
        }
    }

    /** Whose figures a row holds. */
    enum How {
        TUNED("connector, tuned"),
        DEFAULTS("connector, defaults"),
        ORDINARY("connector, ordinary application"),
        BARE_AS_TUNED("bare Lettuce, as tuned"),
        BARE_AS_DEFAULTS("bare Lettuce, as defaults"),
        BARE_AS_ORDINARY("bare Lettuce, as the ordinary application"),
        BARE_GROUPED("bare Lettuce, multi-member ZADD"),
        BARE_SEARCHED("bare Lettuce, best of search"),
        BARE_EXTRA("bare Lettuce, extra");

        final String label;

        How(String label) {
            this.label = label;
        }

        boolean bare() {
            return name().startsWith("BARE_");
        }

        /** The bare client's row at this connector row's consumers, batch size, slots and window; null for a bare row. */
        How sameSettings() {
            return switch (this) {
                case TUNED -> BARE_AS_TUNED;
                case DEFAULTS -> BARE_AS_DEFAULTS;
                case ORDINARY -> BARE_AS_ORDINARY;
                default -> null;
            };
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

        /** The bare client's phase this one is compared with: it has one consume, ended by its last ZREM. */
        Phase bare() {
            return switch (this) {
                case SEND -> SEND;
                case CONSUME_ACKED, CONSUME -> CONSUME;
                case AT_ONCE -> AT_ONCE;
            };
        }
    }

    /**
     * One measured phase.
     *
     * @param settings what was set, e.g. {@code concurrency 4, batch-size 32}
     */
    record Row(Phase phase, How how, String settings, Counters.Phase figures) {

        double perSecond() {
            return figures.perSecond();
        }
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
     * @param steal           share of the machine's CPU time its hypervisor took while the phase ran (-1: unknown)
     */
    record Lateness(String condition, long[] sorted, int expected, long sentWithinMs, double loadTarget,
            double loadPerSecond, double steal) {

        long percentile(double p) {
            return Measures.percentile(sorted, p);
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

    /** One point of the bare client's search: {@code messages} consumed and committed per second. */
    record SearchPoint(int consumers, int batch, int messages, double perSecond) {
    }

    static final String BATCH_AXIS = "batch size";
    static final String CONSUMERS_AXIS = "consumers";

    BenchResults(String redis) {
        this(redis, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }

    void add(Phase phase, How how, String settings, Counters.Phase figures) {
        rows.add(new Row(phase, how, settings, figures));
    }

    Optional<Row> row(Phase phase, How how) {
        return rows.stream().filter(r -> r.phase() == phase && r.how() == how).findFirst();
    }

    /** The fastest bare row of {@code phase}'s bare counterpart (all bare rows are of {@code messages} messages). */
    Optional<Row> bestBare(Phase phase) {
        Phase bare = phase.bare();
        return rows.stream().filter(r -> r.how().bare() && r.phase() == bare).max(Comparator.comparingDouble(Row::perSecond));
    }

    /** The fastest point of the bare client's search; empty without a search. */
    Optional<SearchPoint> bestSearched() {
        return search.stream().max(Comparator.comparingDouble(SearchPoint::perSecond));
    }

    /**
     * The connector's messages per second in {@code phase} divided by the bare client's at the same consumers,
     * batch size, slots and window; NaN when either is missing.
     */
    double ratioToSame(Phase phase, How how) {
        if (how.sameSettings() == null) {
            return Double.NaN;
        }
        return ratio(row(phase, how), row(phase.bare(), how.sameSettings()));
    }

    /** The connector's messages per second in {@code phase} divided by the fastest bare row's; NaN when either is missing. */
    double ratioToBest(Phase phase, How how) {
        if (how.bare()) {
            return Double.NaN;
        }
        return ratio(row(phase, how), bestBare(phase));
    }

    private static double ratio(Optional<Row> row, Optional<Row> bare) {
        return row.flatMap(r -> bare.map(b -> r.perSecond() / b.perSecond())).orElse(Double.NaN);
    }

    /** The paired rounds of the channels {@code how}, in the order measured. */
    List<PairedRound> paired(How how) {
        return paired.stream().filter(r -> r.how() == how).toList();
    }

    /** The paired rounds' ratios of the channels {@code how}, connector / bare, sorted; empty without rounds. */
    List<Double> pairedRatios(How how) {
        return paired(how).stream().map(PairedRound::ratio).sorted().toList();
    }

    List<SweepPoint> sweep(String axis) {
        return sweep.stream().filter(p -> p.axis().equals(axis)).toList();
    }
}
