package io.rmq.cli;

import java.time.Instant;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.DeadSelection;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;

/** {@code rmq dead requeue <topic>}: the selected dead messages go back to their store queue. */
@Command(name = "requeue", header = "Requeues dead messages: due now (PRIORITY: with their priority), with a fresh attempt count.",
        description = "Each goes back to its own slot; one whose content is pending already merges into the pending copy. "
            + "At most --rate messages per second, so that consumers are not flooded; the command returns when done. "
            + "While it runs, 'operations list' lists it and 'operations cancel' stops it.")
final class DeadRequeueCommand extends AdminCommand {

    /** Messages per second when {@code --rate} is not given. */
    static final int DEFAULT_RATE = 100;

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Selection (exactly one):%n")
    DeadSelectionOptions selection;

    @Option(names = "--rate", paramLabel = "<msgs/s>", defaultValue = "" + DEFAULT_RATE,
            description = "The most messages requeued per second. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(names = "--dry-run", description = "Only count the selected messages; nothing changes.")
    boolean dryRun;

    @Override
    void validate() {
        if (rate < 1) {
            throw new ParameterException(spec.commandLine(), CliMessages.ex.notPositive("--rate", rate));
        }
    }

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        DeadSelection chosen = selection.selection(Instant.now());
        long count = dryRun ? admin.countDead(definition, chosen) : RecordedRun.run(admin, keyPrefix, "requeuing dead messages",
                definition.name(), "selection: " + chosen.describe() + ", at most " + rate + "/s",
                progress -> admin.requeueDead(definition, chosen, rate, progress));
        return new DeadActionReport(definition.name(), DeadActionReport.REQUEUE, chosen.describe(),
                dryRun, count, rate);
    }
}
