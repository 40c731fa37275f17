package io.rmq.cli;

import io.rmq.engine.admin.RmqAdmin;

/**
 * The options every command inherits from the tool's root command ({@code --uri}, credentials, {@code --key-prefix},
 * {@code --json}), as a command reads them from the root of its command line.
 */
interface GlobalOptions {

    /** Opens the admin connection (RMQ-0801 for a malformed URI, RMQ-0313 when Redis cannot be reached). */
    RmqAdmin connect();

    /** The URI without credentials. */
    String displayUri();

    /** The key prefix of the topics. */
    String keyPrefix();

    /** Whether to print one JSON document instead of text. */
    boolean json();
}
