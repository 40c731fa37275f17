package io.rmq.engine.admin;

import java.time.Instant;

/**
 * A requeue or purge of dead messages under way, as recorded in Redis for every admin of the Redis to list and
 * cancel ({@link RmqAdmin#operations}, {@link RmqAdmin#cancelOperation}), whichever process runs it.
 *
 * @param id        its id, given by the process that runs it
 * @param user      who started it (an operator's login, or the command-line tool's user)
 * @param action    what it does, in words ("requeuing dead messages")
 * @param topic     the topic it works on
 * @param what      its selection and rate, in words
 * @param startedAt when it started
 * @param acted     how many messages it had moved when it last reported (about once a second)
 * @param stopping  whether it was asked to stop (it stops before its next script call)
 */
public record AdminOperation(String id, String user, String action, String topic, String what, Instant startedAt,
        long acted, boolean stopping) {
}
