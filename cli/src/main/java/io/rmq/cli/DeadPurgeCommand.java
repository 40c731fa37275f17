package io.rmq.cli;

import java.time.Instant;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;

/** {@code rmq dead purge <topic>}: the selected dead messages are deleted. */
@Command(name = "purge", header = "Deletes dead messages, and what is recorded about them (attempts, last failure).",
        description = "There is no undo: try --dry-run first.")
final class DeadPurgeCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Selection (exactly one):%n")
    DeadSelectionOptions selection;

    @Option(names = "--dry-run", description = "Only count the selected messages; nothing changes.")
    boolean dryRun;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        DeadSelection chosen = selection.selection(Instant.now());
        long count = dryRun ? admin.countDead(definition, chosen) : RecordedRun.run(admin, keyPrefix, "purging dead messages",
                definition.name(), "selection: " + chosen.describe(), progress -> admin.purgeDead(definition, chosen, progress));
        return new DeadActionReport(definition.name(), DeadActionReport.PURGE, chosen.describe(),
                dryRun, count, null);
    }
}
