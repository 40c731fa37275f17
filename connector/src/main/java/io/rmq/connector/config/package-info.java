/**
 * The connector's configuration: the attribute declarations ({@link io.rmq.connector.config.RmqAttribute}),
 * the typed and checked channel configurations ({@link io.rmq.connector.config.IncomingChannelConfig},
 * {@link io.rmq.connector.config.OutgoingChannelConfig}) that report every problem of a channel at once
 * ({@link io.rmq.connector.config.RmqConfigurationException}), and the generator of the attribute table in
 * {@code docs/configuration.md} ({@link io.rmq.connector.config.AttributeTable}).
 */
package io.rmq.connector.config;
