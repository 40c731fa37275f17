package io.rmq.cdi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

import org.eclipse.microprofile.config.Config;

import io.rmq.connector.RedisRmqConnector;
import io.rmq.connector.config.ConfigProblem;
import io.rmq.connector.config.Direction;
import io.rmq.connector.config.IncomingChannelConfig;
import io.rmq.connector.config.OutgoingChannelConfig;

/**
 * The channels of the {@code smallrye-redis-rmq} connector declared in a MicroProfile
 * {@link Config}, found the way the runtime finds them: every
 * {@code mp.messaging.[incoming|outgoing].<channel>.connector} property whose value is the
 * connector's name, except channels switched off with {@code enabled=false}. Stateless.
 */
final class ConfiguredChannels {

    private static final String CONNECTOR = RedisRmqConnector.CONNECTOR_NAME;

    private ConfiguredChannels() {
    }

    /** The connector's channels, incoming ones first, each group sorted by name. */
    static List<ChannelConfigView> in(Config root) {
        List<ChannelConfigView> channels = new ArrayList<>();
        for (Direction direction : List.of(Direction.INCOMING, Direction.OUTGOING)) {
            for (String name : channelNames(root, direction)) {
                ChannelConfigView view = new ChannelConfigView(root, direction, name, CONNECTOR);
                if (usesConnector(root, view) && isEnabled(view)) {
                    channels.add(view);
                }
            }
        }
        return channels;
    }

    /**
     * Checks every channel of the connector with the connector's own rules
     * ({@link IncomingChannelConfig#validate}, {@link OutgoingChannelConfig#validate}).
     *
     * @return every problem of every channel, in the order of {@link #in(Config)}; empty when all are usable
     */
    static List<ConfigProblem> problems(Config root) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (ChannelConfigView channel : in(root)) {
            problems.addAll(channel.direction() == Direction.INCOMING
                    ? IncomingChannelConfig.validate(channel)
                    : OutgoingChannelConfig.validate(channel));
        }
        return problems;
    }

    /**
     * The channel names of a direction: the segment after {@code mp.messaging.<direction>.}, up to
     * the next dot, or between quotes when quoted.
     */
    static TreeSet<String> channelNames(Config root, Direction direction) {
        String prefix = "mp.messaging." + direction.label() + ".";
        TreeSet<String> names = new TreeSet<>(Comparator.naturalOrder());
        for (String property : root.getPropertyNames()) {
            if (property.startsWith(prefix)) {
                channelName(property.substring(prefix.length())).ifPresent(names::add);
            }
        }
        return names;
    }

    private static Optional<String> channelName(String rest) {
        if (rest.startsWith("\"")) {
            int end = rest.indexOf("\".", 1);
            return end > 1 ? Optional.of(rest.substring(1, end)) : Optional.empty();
        }
        int dot = rest.indexOf('.');
        return dot > 0 ? Optional.of(rest.substring(0, dot)) : Optional.empty();
    }

    /** The connector is named on the channel itself, never at the connector level. */
    private static boolean usesConnector(Config root, ChannelConfigView channel) {
        String property = ChannelConfigView.channelPrefix(channel.direction(), channel.channel()) + "connector";
        return root.getOptionalValue(property, String.class).map(String::trim).filter(CONNECTOR::equals).isPresent();
    }

    /** {@code enabled=false} (at either level) switches a channel off; the runtime then does not create it. */
    private static boolean isEnabled(ChannelConfigView channel) {
        try {
            return channel.getOptionalValue("enabled", String.class).map(String::trim)
                    .map(v -> !"false".equalsIgnoreCase(v)).orElse(true);
        } catch (RuntimeException unreadable) {
            return true; // the runtime reports it; the channel is checked as if enabled
        }
    }
}
