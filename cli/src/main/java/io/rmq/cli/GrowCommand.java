package io.rmq.cli;

import java.io.PrintWriter;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rmq grow <topic> <amount>}: grows a topic's slot amount while it runs (docs/topic-growth.md). */
@Command(name = "grow", header = "Grows a topic to more slots while its producers and consumers run.",
        description = {"Doubles the topic's slots until it has <amount> (a larger power of two, at most 16384) and returns"
                + " once Redis records it: each doubling lasts until the old slots have let go of what they held when"
                + " it began, and the new slots wait for that. Nothing is lost, duplicates still merge, and with"
                + " ZooKeeper no key is processed twice at once.",
                "Run it again to resume a growth that was interrupted."})
final class GrowCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @Parameters(index = "1", paramLabel = "<amount>", description = "The new slot amount: a power of two above the current one.")
    int amount;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        TopicDefinition grown = admin.growTopic(definition, amount);
        return new GrowReport(definition.name(), definition.slotAmount(), grown.slotAmount());
    }

    /**
     * What {@code grow} did.
     *
     * @param topic the topic
     * @param from  its slot amount before (as recorded when the command started)
     * @param slots its slot amount now
     */
    public record GrowReport(String topic, int from, int slots) implements Report {

        @Override
        public void printText(PrintWriter out) {
            out.println("topic '" + topic + "' has " + slots + " slots (had " + from + ")");
        }
    }
}
