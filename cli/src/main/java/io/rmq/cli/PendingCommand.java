package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq pending}: the commands on one pending message. */
@Command(name = "pending", header = "Removes one pending message, or makes it due now.",
        description = "A pending message waits in its slot's store queue; one being consumed (in flight) is not pending. "
            + "The slot is found as producers find it: from --slot-basis when the message was sent with one, else "
            + "from the content.",
        subcommands = {PendingRemoveCommand.class, PendingDueNowCommand.class})
final class PendingCommand {
}
