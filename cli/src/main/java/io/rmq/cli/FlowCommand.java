package io.rmq.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.FlowField;
import io.rmq.engine.admin.FlowRates;
import io.rmq.engine.admin.FlowUpdate;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.TopicFlow;

/** {@code rmq flow}: a topic's flow settings, shown and changed live. */
@Command(name = "flow", header = "Shows or changes a topic's flow settings live: limits, per-key limits, fair share,"
        + " weights, priority aging, adaptive slow-down.",
        description = "A change takes effect on every consumer without a restart and stands until changed again; an"
                + " application's configuration gives only the starting value (see docs/flow-control.md).",
        subcommands = {FlowCommand.Show.class, FlowCommand.Set.class, FlowCommand.Remove.class, FlowCommand.Weight.class})
final class FlowCommand {

    /** A {@code flow} command on one topic: checks its values into a change before connecting, then applies it. */
    abstract static class OnTopic extends AdminCommand {

        @Parameters(index = "0", paramLabel = "<topic>", description = "The topic.")
        String topic;

        private FlowUpdate update;

        /** The change, built from the options; {@code null} for none. */
        abstract FlowUpdate update();

        /** What the command did, in the past tense. */
        abstract String done();

        @Override
        final void validate() {
            try {
                update = update();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }

        @Override
        final Report run(RmqAdmin admin, String keyPrefix) {
            TopicFlow flow = admin.flow(admin.topic(topic, keyPrefix));
            if (update != null) {
                flow.apply(update);
            }
            return FlowReport.of(topic, done(), flow.settings());
        }

        static boolean onOff(String option, String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "on" -> true;
                case "off" -> false;
                default -> throw new IllegalArgumentException(CliMessages.ex.notOnOff(option, value));
            };
        }

        static double number(String option, String value) {
            try {
                double d = Double.parseDouble(value);
                if (d > 0 && Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(CliMessages.ex.notANumber(option, value));
        }
    }

    /** {@code rmq flow show <topic>}. */
    @Command(name = "show", header = "Shows a topic's flow settings, the adaptive slow-down's state, and what"
            + " configuration asked for.")
    static final class Show extends OnTopic {
        @Override
        FlowUpdate update() {
            return null;
        }

        @Override
        String done() {
            return null;
        }
    }

    /** {@code rmq flow set <topic> [options]}: only the settings named change. */
    @Command(name = "set", header = "Changes some of a topic's flow settings at once; the others stay as they are.")
    static final class Set extends OnTopic {

        @Option(names = "--rate", paramLabel = "<n/unit>", description = "Topic limit: 500/s, 30/m, 2/h.")
        String rate;

        @Option(names = "--burst", paramLabel = "<n>", description = "Topic burst, messages (0: a tenth of a second's worth).")
        Integer burst;

        @Option(names = "--key-concurrency", paramLabel = "<n>", description = "Messages of one key consumed at once.")
        Integer keyConcurrency;

        @Option(names = "--key-rate", paramLabel = "<n/unit>", description = "Per-key limit: 50/s.")
        String keyRate;

        @Option(names = "--key-burst", paramLabel = "<n>", description = "Per-key burst, messages.")
        Integer keyBurst;

        @Option(names = "--fair", paramLabel = "on|off", description = "Fair share between tenants.")
        String fair;

        @Option(names = "--default-weight", paramLabel = "<w>", description = "The weight of tenants without their own.")
        String defaultWeight;

        @Option(names = "--aging", paramLabel = "<points/duration>", description = "Priority aging: 1/10s is one"
                + " point per ten seconds of waiting.")
        String aging;

        @Option(names = "--adaptive", paramLabel = "on|off", description = "Adaptive slow-down on failures.")
        String adaptive;

        @Option(names = "--adaptive-threshold", paramLabel = "<ratio>", description = "Failure ratio above which it"
                + " slows down: 0.5.")
        String adaptiveThreshold;

        @Option(names = "--adaptive-floor", paramLabel = "<n/unit>", description = "Its lowest rate: 5/s.")
        String adaptiveFloor;

        @Override
        FlowUpdate update() {
            FlowUpdate.Builder b = FlowUpdate.builder();
            if (rate != null) {
                b.field(FlowField.RATE, FlowUpdate.decimal(FlowField.RATE, FlowRates.perSecond("--rate", rate)));
            }
            if (burst != null) {
                b.field(FlowField.BURST, Integer.toString(burst));
            }
            if (keyConcurrency != null) {
                b.field(FlowField.KEY_CONCURRENCY, Integer.toString(keyConcurrency));
            }
            if (keyRate != null) {
                b.field(FlowField.KEY_RATE, FlowUpdate.decimal(FlowField.KEY_RATE, FlowRates.perSecond("--key-rate", keyRate)));
            }
            if (keyBurst != null) {
                b.field(FlowField.KEY_BURST, Integer.toString(keyBurst));
            }
            if (fair != null) {
                b.fair(onOff("--fair", fair));
            }
            if (defaultWeight != null) {
                b.defaultWeight(number("--default-weight", defaultWeight));
            }
            if (aging != null) {
                b.agingPace(FlowRates.pointsPerMilli("--aging", aging));
            }
            if (adaptive != null) {
                b.adaptive(onOff("--adaptive", adaptive));
            }
            if (adaptiveThreshold != null) {
                b.adaptiveThreshold(number("--adaptive-threshold", adaptiveThreshold));
            }
            if (adaptiveFloor != null) {
                b.field(FlowField.ADAPTIVE_FLOOR, FlowUpdate.decimal(FlowField.ADAPTIVE_FLOOR,
                        FlowRates.perSecond("--adaptive-floor", adaptiveFloor)));
            }
            FlowUpdate update = b.build();
            if (update.isEmpty()) {
                throw new IllegalArgumentException(CliMessages.ex.noFlowSetting());
            }
            return update;
        }

        @Override
        String done() {
            return "changed";
        }
    }

    /** {@code rmq flow remove <topic> <setting>}. */
    @Command(name = "remove", header = "Removes one flow setting of a topic: rate, burst, key-concurrency, key-rate,"
            + " key-burst, fair, default-weight, aging, adaptive, adaptive-threshold, adaptive-floor or weight:<tenant>.")
    static final class Remove extends OnTopic {

        private static final Map<String, Consumer<FlowUpdate.Builder>> SETTINGS = settings();

        @Parameters(index = "1", paramLabel = "<setting>", description = "The setting to remove.")
        String setting;

        private static Map<String, Consumer<FlowUpdate.Builder>> settings() {
            Map<String, Consumer<FlowUpdate.Builder>> m = new LinkedHashMap<>();
            m.put("rate", FlowUpdate.Builder::removeRate);
            m.put("burst", b -> b.field(FlowField.BURST, ""));
            m.put("key-concurrency", FlowUpdate.Builder::removeKeyConcurrency);
            m.put("key-rate", FlowUpdate.Builder::removeKeyRate);
            m.put("key-burst", b -> b.field(FlowField.KEY_BURST, ""));
            m.put("fair", b -> b.field(FlowField.FAIR, ""));
            m.put("default-weight", FlowUpdate.Builder::removeDefaultWeight);
            m.put("aging", FlowUpdate.Builder::removeAging);
            m.put("adaptive", b -> b.field(FlowField.ADAPTIVE_ON, "").field(FlowField.ADAPTIVE_THRESHOLD, "")
                    .field(FlowField.ADAPTIVE_FLOOR, ""));
            m.put("adaptive-threshold", b -> b.field(FlowField.ADAPTIVE_THRESHOLD, ""));
            m.put("adaptive-floor", b -> b.field(FlowField.ADAPTIVE_FLOOR, ""));
            return m;
        }

        @Override
        FlowUpdate update() {
            FlowUpdate.Builder b = FlowUpdate.builder();
            if (setting.startsWith("weight:")) {
                return b.removeWeight(setting.substring("weight:".length())).build();
            }
            Consumer<FlowUpdate.Builder> remove = SETTINGS.get(setting);
            if (remove == null) {
                throw new IllegalArgumentException(CliMessages.ex.unknownFlowSetting(setting,
                        String.join(", ", SETTINGS.keySet()) + ", weight:<tenant>"));
            }
            remove.accept(b);
            return b.build();
        }

        @Override
        String done() {
            return "removed " + setting;
        }
    }

    /** {@code rmq flow weight <topic> <tenant> <weight>}. */
    @Command(name = "weight", header = "Sets a tenant's weight in fair share ('flow remove <topic> weight:<tenant>'"
            + " removes it).")
    static final class Weight extends OnTopic {

        @Parameters(index = "1", paramLabel = "<tenant>", description = "The tenant.")
        String tenant;

        @Parameters(index = "2", paramLabel = "<weight>", description = "Its weight, above 0 (others weigh 1 unless"
                + " --default-weight says otherwise).")
        String weight;

        @Override
        FlowUpdate update() {
            return FlowUpdate.builder().weight(tenant, number("<weight>", weight)).build();
        }

        @Override
        String done() {
            return "set the weight of tenant '" + tenant + "'";
        }
    }
}
