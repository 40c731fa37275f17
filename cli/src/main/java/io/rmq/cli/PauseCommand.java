package io.rmq.cli;

import picocli.CommandLine.Command;

/** {@code rmq pause <topic>}: consumption stops on every consumer of the cluster. */
@Command(name = "pause", header = "Pauses the consumption of a topic on every consumer; producers go on storing.",
        description = "Consumers pop nothing from a paused slot; messages in flight finish as usual. Undo with 'resume'.")
final class PauseCommand extends ConsumptionCommand {

    @Override
    boolean paused() {
        return true;
    }
}
