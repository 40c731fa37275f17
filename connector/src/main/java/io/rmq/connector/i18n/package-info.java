/**
 * The connector's log messages ({@link io.rmq.connector.i18n.RmqLogging}, ids {@code RMQ-1xxx}) and
 * exception texts ({@link io.rmq.connector.i18n.RmqExceptions}, ids {@code RMQ-2xxx}), declared in one
 * place. An id never changes meaning once released; a retired id is not reused (retired:
 * {@code RMQ-1004} to {@code RMQ-1009}, events the engine logs itself). Add a message with the next
 * free id of its range, named for what happened. {@code MessageCatalogueTest} fails when an id is
 * declared twice or a message is never used.
 */
package io.rmq.connector.i18n;
