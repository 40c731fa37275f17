package io.rmq.cli;

import java.io.PrintWriter;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.topic.TopicDefinition;
import picocli.CommandLine.Parameters;

/** Sets whether a topic's consumption is paused, on every slot: {@code pause} and {@code resume}. */
abstract class ConsumptionCommand extends AdminCommand {

    @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
    String topic;

    @Override
    Report run(RmqAdmin admin, String keyPrefix) {
        TopicDefinition definition = admin.topic(topic, keyPrefix);
        boolean paused = paused();
        if (paused) {
            admin.pause(definition);
        } else {
            admin.resume(definition);
        }
        return new PauseReport(definition.name(), definition.slotAmount(), paused);
    }

    /** The state the command sets. */
    abstract boolean paused();

    /**
     * What {@code pause} or {@code resume} did.
     *
     * @param topic  the topic
     * @param slots  how many slots were set
     * @param paused whether consumption is now paused
     */
    public record PauseReport(String topic, int slots, boolean paused) implements Report {

        @Override
        public void printText(PrintWriter out) {
            String all = slots == 1 ? "its slot" : "all " + slots + " slots";
            out.println(paused
                    ? "paused consumption of topic '" + topic + "' (" + all + "); producers go on storing"
                    : "resumed consumption of topic '" + topic + "' (" + all + ")");
        }
    }
}
