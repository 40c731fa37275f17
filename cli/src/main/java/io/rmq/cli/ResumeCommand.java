package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq resume <topic>}: consumers pop again, at once. */
@Command(name = "resume", header = "Resumes the consumption of a paused topic; consumers are woken at once.",
        description = "Consumers that miss the wake notice pop again within a second. Resuming a running topic changes nothing.")
final class ResumeCommand extends ConsumptionCommand {

    @Override
    boolean paused() {
        return false;
    }
}
