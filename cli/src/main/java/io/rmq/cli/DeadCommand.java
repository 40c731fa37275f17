package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq dead}: the dead-queue commands. */
@Command(name = "dead", header = "Lists, requeues or purges the dead messages of a topic.",
        description = "A message goes to its slot's dead queue after its last allowed delivery failed (1 + max-retries).",
        subcommands = {DeadListCommand.class, DeadRequeueCommand.class, DeadPurgeCommand.class})
final class DeadCommand {
}
