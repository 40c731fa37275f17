/**
 * The CDI portable extension of the {@code smallrye-redis-rmq} connector
 * ({@link io.rmq.cdi.RedisRmqExtension}): validation of every channel's configuration at deployment,
 * before any connection is opened, and the connector's beans where bean discovery does not find them.
 * See {@code docs/cdi-extension.md}.
 */
package io.rmq.cdi;
