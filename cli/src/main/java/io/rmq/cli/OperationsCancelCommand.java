package io.rmq.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.RmqAdmin;

/** {@code rmq operations cancel <id>}: stops a requeue or purge, whichever process runs it. */
@Command(name = "cancel", header = "Stops a requeue or purge under way, whichever process runs it.",
        description = "It stops within about a second, after its current batch; what it moved stays moved, and its own "
            + "caller reports what it moved. Exit status 1 when none is under way with that id.")
final class OperationsCancelCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<id>", description = "The operation's id, as 'operations list' shows it.")
    String id;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        return admin.cancelOperation(keyPrefix, id).map(o -> new CancelReport(OperationsListCommand.Operation.of(o)))
                .orElseThrow(() -> CliMessages.ex.noSuchOperation(id));
    }

    /** The operation asked to stop. */
    public record CancelReport(OperationsListCommand.Operation operation) implements Report {

        @Override
        public void printText(PrintWriter out) {
            out.println("asked " + operation.action() + " of topic '" + operation.topic() + "' (started by "
                    + operation.user() + ", " + operation.acted() + " moved so far) to stop");
        }
    }
}
