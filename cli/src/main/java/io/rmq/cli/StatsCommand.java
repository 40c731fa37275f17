package io.rmq.cli;

import java.io.PrintWriter;
import java.util.List;

import io.rmq.cli.format.HumanDuration;
import io.rmq.cli.format.TextTable;
import io.rmq.cli.format.TextTable.Column;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.SlotOwner;
import io.rmq.engine.admin.SlotStats;
import io.rmq.engine.admin.TopicStats;
import io.rmq.engine.topic.TopicDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rmq stats <topic>}: each slot's state, and the totals. */
@Command(name = "stats", header = "Shows each slot of a topic and the totals: pending, due, in flight, dead, paused, owner.",
        description = "pending: in the store queue; due: pending and due now (PRIORITY: every pending message); "
            + "oldest due: how long the oldest due message has waited (Redis clock); in flight: being consumed; "
            + "dead: in the dead queue; owner: the worker consuming the slot under serial consumption (ZooKeeper).")
final class StatsCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        return StatsReport.of(admin.stats(definition));
    }

    /**
     * A topic's state.
     *
     * @param topic      the topic's name
     * @param type       its type
     * @param slotAmount its number of slots
     * @param keyPrefix  its key prefix
     * @param totals     the sums over the slots
     * @param slots      each slot, by number
     */
    public record StatsReport(String topic, String type, int slotAmount, String keyPrefix, Totals totals,
            List<Slot> slots) implements Report {

        static StatsReport of(TopicStats stats) {
            TopicDefinition t = stats.topic();
            int pausedSlots = (int) stats.slots().stream().filter(SlotStats::paused).count();
            Totals totals = new Totals(stats.pending(), stats.due(), stats.oldestDueAgeMillis(), stats.inFlight(),
                    stats.dead(), stats.paused(), pausedSlots);
            return new StatsReport(t.name(), t.type().name(), t.slotAmount(), t.keyPrefix(), totals,
                    stats.slots().stream().map(Slot::of).toList());
        }

        @Override
        public void printText(PrintWriter out) {
            String consumption = totals.pausedSlots() == 0 ? "consumption running"
                    : totals.paused() ? "consumption PAUSED"
                    : "consumption PAUSED on " + totals.pausedSlots() + " of " + slotAmount + " slots";
            out.println("topic '" + topic + "'" + (keyPrefix.isEmpty() ? "" : " (key prefix '" + keyPrefix + "')") + ": "
                    + type + ", " + slotAmount + (slotAmount == 1 ? " slot, " : " slots, ") + consumption);
            TextTable table = new TextTable(Column.number("SLOT"), Column.number("PENDING"), Column.number("DUE"),
                    Column.number("OLDEST DUE"), Column.number("IN FLIGHT"), Column.number("DEAD"), Column.text("PAUSED"),
                    Column.text("OWNER"), Column.number("EPOCH"), Column.text("SINCE"));
            for (Slot s : slots) {
                table.row(s.slot(), s.pending(), s.due(), age(s.due(), s.oldestDueAgeMillis()), s.inFlight(), s.dead(),
                        s.paused() ? "yes" : "no", s.owner() == null ? "-" : s.owner().worker(),
                        s.owner() == null ? "-" : s.owner().epoch(), s.owner() == null ? "-" : s.owner().since());
            }
            table.row("total", totals.pending(), totals.due(), age(totals.due(), totals.oldestDueAgeMillis()),
                    totals.inFlight(), totals.dead(), totals.pausedSlots() + "/" + slotAmount, "", "", "");
            table.print(out);
        }

        private static String age(long due, long millis) {
            return due == 0 ? "-" : HumanDuration.format(millis);
        }
    }

    /**
     * The sums over the slots.
     *
     * @param pending            messages in the store queues
     * @param due                of those, due now
     * @param oldestDueAgeMillis the longest any due message has waited, ms (0 when none is due, and for PRIORITY)
     * @param inFlight           messages being consumed
     * @param dead               messages in the dead queues
     * @param paused             whether every slot is paused
     * @param pausedSlots        how many slots are paused
     */
    public record Totals(long pending, long due, long oldestDueAgeMillis, long inFlight, long dead, boolean paused,
            int pausedSlots) {
    }

    /** One slot, read atomically; {@code owner} is {@code null} without serial consumption. */
    public record Slot(int slot, long pending, long due, long oldestDueAgeMillis, long inFlight, long dead, boolean paused,
            Owner owner) {

        static Slot of(SlotStats s) {
            return new Slot(s.slot(), s.pending(), s.due(), s.oldestDueAgeMillis(), s.inFlight(), s.dead(), s.paused(),
                    s.owner().map(Owner::of).orElse(null));
        }
    }

    /**
     * A slot's owner under serial consumption.
     *
     * @param worker the worker id
     * @param epoch  the ownership epoch
     * @param since  when it took the slot, ISO-8601 UTC (Redis clock)
     */
    public record Owner(String worker, long epoch, String since) {

        static Owner of(SlotOwner owner) {
            return new Owner(owner.worker(), owner.epoch(), owner.since().toString());
        }
    }
}
