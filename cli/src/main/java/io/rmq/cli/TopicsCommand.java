package io.rmq.cli;

import java.io.PrintWriter;
import java.util.List;

import io.rmq.cli.format.TextTable;
import io.rmq.cli.format.TextTable.Column;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import picocli.CommandLine.Command;

/** {@code rmq topics}: the topics recorded under the key prefix. */
@Command(name = "topics", header = "Lists the topics recorded in Redis, with their type and slot amount.",
        description = "A topic is recorded in hash <prefix>rmq:topics when a producer or consumer first uses it.")
final class TopicsCommand extends AdminCommand {

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        List<Topic> topics = admin.topics(keyPrefix).stream().map(Topic::of).toList();
        return new TopicsReport(keyPrefix, TopicKeys.registryKey(keyPrefix), topics);
    }

    /**
     * The topics of one key prefix.
     *
     * @param keyPrefix the key prefix asked for
     * @param registry  the hash they are recorded in
     * @param topics    by name
     */
    public record TopicsReport(String keyPrefix, String registry, List<Topic> topics) implements Report {

        @Override
        public void printText(PrintWriter out) {
            if (topics.isEmpty()) {
                out.println("no topic is recorded in hash '" + registry + "'");
                return;
            }
            TextTable table = new TextTable(Column.text("TOPIC"), Column.text("TYPE"), Column.number("SLOTS"));
            topics.forEach(t -> table.row(t.name(), t.type(), t.slotAmount()));
            table.print(out);
        }
    }

    /** A topic's definition: {@code name}, {@code type} ({@code RANGE_MERGE}, {@code PRIORITY}, {@code FIXED_TIME}), {@code slotAmount}. */
    public record Topic(String name, String type, int slotAmount) {

        static Topic of(TopicDefinition topic) {
            return new Topic(topic.name(), topic.type().name(), topic.slotAmount());
        }
    }
}
