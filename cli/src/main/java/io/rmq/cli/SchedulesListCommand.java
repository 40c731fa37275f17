package io.rmq.cli;

import java.io.PrintWriter;
import java.util.List;

import picocli.CommandLine.Command;

import io.rmq.cli.format.TextTable;
import io.rmq.cli.format.TextTable.Column;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicKeys;

/** {@code rmq schedules list}: the schedules recorded under the key prefix. */
@Command(name = "list", header = "Lists the recorded schedules: timing, missed-tick policy, paused, last and next tick.",
        description = "A schedule is recorded in hash <prefix>rmq:schedules when an application declares it.")
final class SchedulesListCommand extends AdminCommand {

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        return new SchedulesReport(TopicKeys.scheduleRegistryKey(keyPrefix),
                admin.schedules(keyPrefix).stream().map(Schedule::of).toList());
    }

    /**
     * The schedules of one key prefix.
     *
     * @param registry  the hash they are recorded in
     * @param schedules by name
     */
    public record SchedulesReport(String registry, List<Schedule> schedules) implements Report {

        @Override
        public void printText(PrintWriter out) {
            if (schedules.isEmpty()) {
                out.println("no schedule is recorded in hash '" + registry + "'");
                return;
            }
            TextTable table = new TextTable(Column.text("SCHEDULE"), Column.text("TOPIC"), Column.text("TIMING"),
                    Column.text("MISSED"), Column.text("PAUSED"), Column.text("LAST TICK"), Column.text("NEXT TICK"));
            schedules.forEach(s -> table.row(s.name(), s.topic(), s.timing(), s.missed(), s.paused() ? "yes" : "no",
                    s.lastTick() == null ? "-" : s.lastTick(), s.nextTick() == null ? "-" : s.nextTick()));
            table.print(out);
        }
    }
}
