/**
 * The connector's log messages ({@link io.rmq.connector.i18n.RmqLogging}, ids {@code RMQ-1xxx}) and
 * exception texts ({@link io.rmq.connector.i18n.RmqExceptions}, ids {@code RMQ-2xxx}), declared in one
 * place. An id never changes meaning once released; a retired id is not reused (retired:
 * {@code RMQ-1004} to {@code RMQ-1009}, events the engine logs itself). Add a message with the next
 * free id of its range, named for what happened. Every text starts with its id and a blank, as in every
 * catalogue of the project ({@code RMQ-2001 Channel 'prices' ...}); the CDI extension's texts are
 * {@code RMQ-22xx}. {@code MessageCatalogueTest} fails when an id is declared twice, a message is never
 * used or does not start that way.
 */
package io.rmq.connector.i18n;
