package io.rmq.cli;

import picocli.CommandLine.Command;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;

/** {@code rmq pending due-now <topic> <member>}. */
@Command(name = "due-now", header = "Makes one pending message due at once (PRIORITY: first of its slot).",
        description = "A timed message due already keeps its due time; consumers are woken. Exit status 3 when it is not pending in its slot.")
final class PendingDueNowCommand extends PendingMessageCommand {

    static final String ACTION = PendingReport.DUE_NOW;

    @Override
    String action() {
        return ACTION;
    }

    @Override
    boolean act(RmqAdmin admin, TopicDefinition topic, byte[] content, String slotBasis) {
        return admin.makeDueNow(topic, content, slotBasis);
    }
}
