package io.rmq.cli;

import picocli.CommandLine.Command;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;

/** {@code rmq pending remove <topic> <member>}. */
@Command(name = "remove", header = "Deletes one pending message (never a copy being consumed).",
        description = "Its attempt count and last failure go with it. Exit status 3 when it is not pending in its slot.")
final class PendingRemoveCommand extends PendingMessageCommand {

    static final String ACTION = PendingReport.REMOVE;

    @Override
    String action() {
        return ACTION;
    }

    @Override
    boolean act(RmqAdmin admin, TopicDefinition topic, byte[] content, String slotBasis) {
        return admin.removePending(topic, content, slotBasis);
    }
}
