package io.rmq.cdi.i18n;

import java.util.NoSuchElementException;

/**
 * The CDI extension's exception texts, each with a stable id ({@code RMQ-22xx}; its log lines are the
 * connector's). Use the shared instance {@link #ex}; thread-safe.
 */
public final class CdiExceptions {

    /** The shared instance. */
    public static final CdiExceptions ex = new CdiExceptions();

    private CdiExceptions() {
    }

    /** RMQ-2201: a channel's configuration view was asked for both directions at once. */
    public IllegalArgumentException channelOfBothDirections() {
        return new IllegalArgumentException("RMQ-2201 A channel is either incoming or outgoing");
    }

    /** RMQ-2202: a channel attribute that is set neither for the channel nor for the connector was required. */
    public NoSuchElementException attributeNotSet(String channel, String attribute, String channelProperty,
            String connectorProperty) {
        return new NoSuchElementException("RMQ-2202 Channel '" + channel + "' has no attribute '" + attribute
                + "' (neither " + channelProperty + " nor " + connectorProperty + " is set)");
    }

    /** RMQ-2203: the application's configuration has no converter to the type an attribute was asked as. */
    public IllegalArgumentException noConverter(String type) {
        return new IllegalArgumentException("RMQ-2203 No converter for " + type);
    }
}
