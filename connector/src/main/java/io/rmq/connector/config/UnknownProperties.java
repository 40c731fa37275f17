package io.rmq.connector.config;

import io.rmq.connector.i18n.RmqLogging;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.spi.ConnectorFactory;

/**
 * Finds the properties of a channel that are no attribute of the connector nor of the messaging runtime,
 * and logs each once (RMQ-1080) with the attribute it most likely meant: a misspelt attribute is otherwise
 * silently replaced by its default. Stateless; the configuration is read on the calling thread.
 *
 * <p>MicroProfile Config finds {@code redis-uri} in the environment variable whose name is the property's
 * {@linkplain #environmentForm environment form} ({@code MP_MESSAGING_CONNECTOR_SMALLRYE_REDIS_RMQ_REDIS_URI}),
 * and the runtime then lists the channel's property under names derived from the variable's:
 * {@code REDIS_URI} or {@code redis_uri} (the variable's own spelling), and {@code redis.uri} (SmallRye
 * Config 3 lists both). Such a name counts as the attribute it spells, so names are compared in that form.
 */
final class UnknownProperties {

    /**
     * Channel properties that belong to the messaging runtime (MicroProfile Reactive Messaging, SmallRye),
     * not to the connector: set beside the connector's attributes, they are not mistakes.
     */
    private static final Set<String> RUNTIME_PROPERTIES = Set.of("connector", ConnectorFactory.CHANNEL_NAME_ATTRIBUTE,
            "merge", "broadcast", "enabled", "concurrency", "pausable", "initially-paused", "pausable.initially-paused",
            "pausable.late-subscription", "pausable.buffer-size", "pausable.buffer-strategy");

    /** Every attribute and runtime property, by its environment form. */
    private static final Map<String, String> KNOWN_BY_ENVIRONMENT_FORM = Stream.concat(RUNTIME_PROPERTIES.stream(),
                    Arrays.stream(RmqAttribute.values()).map(RmqAttribute::attributeName))
            .collect(Collectors.toUnmodifiableMap(UnknownProperties::environmentForm, Function.identity()));

    /** The characters of an environment variable's name: a name with a dot or a dash is not one. */
    private static final Pattern ENVIRONMENT_SPELLING = Pattern.compile("[A-Za-z0-9_]+");

    private UnknownProperties() {
    }

    /**
     * Logs each unknown property of the channel {@code config} describes. An attribute of the other direction
     * is not reported: it may be set once for the whole connector
     * ({@code mp.messaging.connector.smallrye-redis-rmq.<attribute>}). The names of one misspelt environment
     * variable are reported once, under the variable's spelling when it is listed ({@code REDIS_UIR}).
     */
    static void warnAbout(Config config, String channel, Direction direction) {
        Set<String> names = new TreeSet<>();
        try {
            config.getPropertyNames().forEach(names::add);
        } catch (RuntimeException e) {
            return; // a configuration that cannot list its names has had its attributes read already
        }
        Map<String, String> unknownByEnvironmentForm = new TreeMap<>();
        for (String name : names) {
            if (!isKnown(config, name)) {
                unknownByEnvironmentForm.merge(environmentForm(name), name,
                        (listed, other) -> isEnvironmentSpelling(other) && !isEnvironmentSpelling(listed) ? other : listed);
            }
        }
        for (String name : new TreeSet<>(unknownByEnvironmentForm.values())) {
            RmqLogging.log.unknownAttribute(channel, direction.label(), name, closestAttribute(name, direction));
        }
    }

    /**
     * Whether {@code name} is an attribute or a runtime property. A name that only spells one in its
     * environment form counts as it when the attribute is read with a value: {@code prepare.timeout} written
     * in a properties file is not found under {@code prepare-timeout} (only environment variables are looked
     * up that way), so while {@code prepare-timeout} is not set it is reported.
     */
    private static boolean isKnown(Config config, String name) { // a schedule's settings are checked by ScheduleAttributes
        if (RUNTIME_PROPERTIES.contains(name) || RmqAttribute.byName(name).isPresent()
                || name.startsWith(ScheduleAttributes.PREFIX)) {
            return true;
        }
        String spelt = KNOWN_BY_ENVIRONMENT_FORM.get(environmentForm(name));
        return spelt != null && isSet(config, spelt);
    }

    private static boolean isSet(Config config, String property) {
        try {
            return config.getConfigValue(property).getRawValue() != null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean isEnvironmentSpelling(String name) {
        return ENVIRONMENT_SPELLING.matcher(name).matches();
    }

    /**
     * The name of the environment variable MicroProfile Config looks up for {@code property}: each
     * character other than a letter or a digit becomes {@code _}, and letters are upper case.
     */
    static String environmentForm(String property) {
        StringBuilder form = new StringBuilder(property.length());
        for (int i = 0; i < property.length(); i++) {
            char c = property.charAt(i);
            form.append(c < 128 && Character.isLetterOrDigit(c) ? Character.toUpperCase(c) : '_');
        }
        return form.toString();
    }

    /**
     * The attribute of {@code direction} whose name is nearest to {@code name}, when it is a plausible typo.
     * Names are compared in their environment form, so {@code REDIS_UIR} is as near to {@code redis-uri}
     * as {@code redis-uir} is.
     */
    private static String closestAttribute(String name, Direction direction) {
        String form = environmentForm(name);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (RmqAttribute attribute : RmqAttribute.values()) {
            if (!attribute.direction().appliesTo(direction)) {
                continue;
            }
            int d = editDistance(form, environmentForm(attribute.attributeName()));
            if (d < bestDistance) {
                bestDistance = d;
                best = attribute.attributeName();
            }
        }
        return bestDistance <= Math.max(2, name.length() / 4) ? best : null;
    }

    /** Levenshtein distance between two strings. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
