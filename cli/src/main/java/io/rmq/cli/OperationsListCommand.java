package io.rmq.cli;

import java.io.PrintWriter;
import java.util.List;

import picocli.CommandLine.Command;

import io.rmq.cli.format.TextTable.Column;
import io.rmq.cli.format.TextTable;
import io.rmq.engine.admin.AdminOperation;
import io.rmq.engine.admin.RmqAdmin;

/** {@code rmq operations list}: the requeues and purges under way on the topics of the key prefix. */
@Command(name = "list", header = "Lists the requeues and purges under way, oldest first.",
        description = "MOVED is what each had moved at its last report (about once a second).")
final class OperationsListCommand extends AdminCommand {

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        return new OperationsReport(admin.operations(keyPrefix).stream().map(Operation::of).toList());
    }

    /** The operations under way, oldest first. */
    public record OperationsReport(List<Operation> operations) implements Report {

        @Override
        public void printText(PrintWriter out) {
            if (operations.isEmpty()) {
                out.println("no requeue or purge is under way");
                return;
            }
            TextTable table = new TextTable(Column.text("ID"), Column.text("STARTED"), Column.text("USER"), Column.text("ACTION"),
                    Column.text("TOPIC"), Column.number("MOVED"), Column.text("WHAT"));
            operations.forEach(o -> table.row(o.id(), o.startedAt(), o.user(), o.action() + (o.stopping() ? " (stopping)" : ""),
                    o.topic(), o.acted(), o.what()));
            table.print(out);
        }
    }

    /**
     * One operation under way: {@code id} (for {@code operations cancel}), {@code user}, {@code action}, {@code topic},
     * {@code what} (its selection, its rate), {@code startedAt} (ISO-8601), {@code acted} (messages moved at its last
     * report), {@code stopping} (asked to stop).
     */
    public record Operation(String id, String user, String action, String topic, String what, String startedAt, long acted,
            boolean stopping) {

        static Operation of(AdminOperation o) {
            return new Operation(o.id(), o.user(), o.action(), o.topic(), o.what(), o.startedAt().toString(), o.acted(),
                    o.stopping());
        }
    }
}
