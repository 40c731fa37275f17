package io.rmq.tck.rules;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The channels of every contract rule class ({@link #allProperties()}) as a MicroProfile
 * {@link ConfigSource}, for an application that runs all the rules at once: it lists it in its test
 * resources' {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}. This jar does
 * not register it, so that a container that sees the jar on its class path (Weld embedded in the
 * contract suite's own JVM) gets only the channels of the deployment it runs. Ordinal 50, below the
 * standard sources. Stateless.
 */
public final class ContractChannelsConfigSource implements ConfigSource {

    private static final Map<String, String> PROPERTIES = allProperties();

    /** The channels of every rule class, for one application that runs them all. */
    public static Map<String, String> allProperties() {
        Map<String, String> all = new LinkedHashMap<>();
        List.of(RangeMergeRules.CHANNELS, PriorityRules.CHANNELS, FixedTimeRules.CHANNELS,
                AcknowledgementRules.CHANNELS, OutgoingMetadataRules.CHANNELS, PendingMessagesRules.CHANNELS,
                FailureStrategyRules.CHANNELS, BatchRules.CHANNELS, PauseRules.CHANNELS, TracingRules.CHANNELS)
                .forEach(c -> all.putAll(c.properties()));
        return Collections.unmodifiableMap(all);
    }

    @Override
    public Map<String, String> getProperties() {
        return PROPERTIES;
    }

    @Override
    public Set<String> getPropertyNames() {
        return PROPERTIES.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return PROPERTIES.get(propertyName);
    }

    @Override
    public String getName() {
        return "rmq-contract-channels";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }
}
