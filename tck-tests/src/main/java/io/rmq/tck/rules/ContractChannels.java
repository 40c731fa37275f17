package io.rmq.tck.rules;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The channels of a contract rule class, declared once for every runtime that runs the rules: the
 * Arquillian deployments of the contract suite ({@code TckDeployment}) write them into the deployment's
 * MicroProfile Config, and an application that runs all the rules at once (the Quarkus example's tests)
 * reads them through {@code ContractChannelsConfigSource}. Channel and topic names are unique across the
 * rule classes, so that all of them fit in one application; the connector-level {@code redis-uri} and
 * {@code key-prefix} are the runtime's. Immutable once built.
 */
public final class ContractChannels {

    /** The connector under test. */
    public static final String CONNECTOR = "smallrye-redis-rmq";

    private final Map<String, String> properties = new LinkedHashMap<>();

    private ContractChannels() {
    }

    /** An empty declaration, to add channels to. */
    public static ContractChannels declare() {
        return new ContractChannels();
    }

    /** Adds an incoming channel of the connector with attribute/value pairs. */
    public ContractChannels incoming(String channel, Object... attributes) {
        return channel("incoming", channel, attributes);
    }

    /** Adds an outgoing channel of the connector with attribute/value pairs. */
    public ContractChannels outgoing(String channel, Object... attributes) {
        return channel("outgoing", channel, attributes);
    }

    private ContractChannels channel(String direction, String channel, Object... attributes) {
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attribute/value pairs expected: " + Arrays.toString(attributes));
        }
        String prefix = "mp.messaging." + direction + "." + channel + ".";
        properties.put(prefix + "connector", CONNECTOR);
        for (int i = 0; i < attributes.length; i += 2) {
            properties.put(prefix + attributes[i], String.valueOf(attributes[i + 1]));
        }
        return this;
    }

    /** The MicroProfile Config properties of these channels, in the order they were declared. */
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }
}
