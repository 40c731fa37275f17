package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq operations}: the requeues and purges under way, by any process. */
@Command(name = "operations", header = "Lists the requeues and purges under way, or cancels one.",
        description = "Every requeue and purge (of this tool, of the admin endpoints or the dashboard of any instance) is "
            + "recorded in Redis while it runs, in hash {<prefix>rmq:topics}operations, so they are listed and cancelled "
            + "here whichever process runs them.",
        subcommands = {OperationsListCommand.class, OperationsCancelCommand.class})
final class OperationsCommand {
}
