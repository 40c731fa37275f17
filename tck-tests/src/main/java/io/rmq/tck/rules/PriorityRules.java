package io.rmq.tck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import org.reactivestreams.Publisher;

import io.rmq.connector.OutgoingRmqMetadata;
import io.rmq.tck.support.Inbox;
import io.rmq.tck.support.Outbox;
import io.rmq.tck.support.Received;
import io.rmq.tck.support.RedisProbe;

/**
 * {@code PRIORITY} topics: higher priorities are consumed first; a duplicate sent while one is
 * pending merges into it and the last priority stands.
 *
 * <p>A contract rule class: the contract suite runs it on Weld embedded and Open Liberty
 * ({@code io.rmq.tck.PriorityIT}), the Quarkus example on Quarkus ({@code PriorityContractIT}); {@link #CHANNELS}
 * are its channels, and its beans (the nested classes) are part of the application under test.
 */
public abstract class PriorityRules {

    static final String TASKS = "priority-tasks";
    static final String JOBS = "priority-jobs";

    /** The channels of these rules. */
    public static final ContractChannels CHANNELS = ContractChannels.declare()
            .outgoing("priority-tasks-out", "topic", TASKS, "topic-type", "PRIORITY", "slot-amount", 1)
            // consumed through an injected @Channel publisher: nothing is popped before the worker subscribes
            .incoming(TASKS, "topic-type", "PRIORITY", "slot-amount", 1, "poll-interval", 200)
            .incoming(JOBS, "topic-type", "PRIORITY", "slot-amount", 1, "poll-interval", 200);

    /** Queues tasks. */
    @ApplicationScoped
    public static class TaskBoard {
        @Inject
        @Channel("priority-tasks-out")
        Emitter<Object> tasks;

        public Emitter<Object> tasks() {
            return tasks;
        }
    }

    /** Takes tasks once started: subscribes to the channel, records and acks each task. */
    @ApplicationScoped
    public static class Worker {
        private final Inbox inbox = new Inbox();
        private final AtomicBoolean started = new AtomicBoolean();

        @Inject
        @Channel("priority-tasks")
        Publisher<Message<String>> tasks;

        public Inbox inbox() {
            return inbox;
        }

        public void start() {
            if (started.compareAndSet(false, true)) {
                tasks.subscribe(inbox.ackingSubscriber());
            }
        }
    }

    /** Runs jobs as they come: records and acks each. */
    @ApplicationScoped
    public static class JobRunner {
        private final Inbox inbox = new Inbox();

        public Inbox inbox() {
            return inbox;
        }

        @Incoming("priority-jobs")
        public CompletionStage<Void> run(Message<String> job) {
            inbox.record(job);
            return job.ack();
        }
    }

    @Inject
    TaskBoard board;

    @Inject
    Worker worker;

    @Inject
    JobRunner runner;

    @Inject
    RedisProbe probe;

    @Test
    public void higherPrioritiesAreConsumedFirstAndTheLastPriorityOfADuplicateStands() {
        queue("send the weekly newsletter", 10);
        queue("refund order-1042", 90);
        queue("rebuild the search index", 40);
        queue("check stock of sku-7", 25);
        queue("check stock of sku-7", 95);  // escalated: the copies merge, the last priority stands
        queue("refund order-1042", 20);     // downgraded: the last priority stands too
        assertThat(probe.pending(TASKS)).hasSize(4);
        assertThat(probe.pendingScore(TASKS, "check stock of sku-7")).isEqualTo(95.0);
        assertThat(probe.pendingScore(TASKS, "refund order-1042")).isEqualTo(20.0);

        worker.start();
        List<Received> taken = worker.inbox().awaitMatching(r -> true, 4);
        assertThat(taken).extracting(Received::payload).containsExactly(
                "check stock of sku-7", "rebuild the search index", "refund order-1042", "send the weekly newsletter");
        assertThat(taken).extracting(Received::score).containsExactly(95.0, 40.0, 20.0, 10.0);
        assertThat(taken).allMatch(r -> r.attempt() == 1 && r.metadata().getTopic().equals(TASKS));
    }

    @Test
    public void aBacklogIsConsumedHighestPriorityFirst() {
        // one ZADD, as a producer in another language would write them: the consumer finds all of them at once
        probe.zaddPending(JOBS, 3, "job:three", 7.5, "job:seven-and-a-half", -2, "job:minus-two", 100, "job:hundred", 0, "job:zero");

        List<Received> received = runner.inbox().awaitStartingWith("job:", 5);
        assertThat(received).extracting(Received::payload).containsExactly(
                "job:hundred", "job:seven-and-a-half", "job:three", "job:zero", "job:minus-two");
        assertThat(received).extracting(Received::score).containsExactly(100.0, 7.5, 3.0, 0.0, -2.0);
    }

    private void queue(String task, double priority) {
        Outbox.sendAndAwaitAck(board.tasks(), task, OutgoingRmqMetadata.builder().withPriority(priority).build());
    }
}
