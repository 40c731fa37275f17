package io.rmq.examples.story;

import java.time.Instant;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import io.rmq.connector.IncomingRmqMetadata;
import io.rmq.connector.OutgoingRmqMetadata;

/**
 * A recurring report: the schedule {@value #SCHEDULE}, declared in the configuration on the channel
 * {@code stock-reports-out}, sends one message a tick, however many instances of the application run; the consumer
 * runs the report for that tick (here it only records it). A report can also be asked for at once through the same
 * channel.
 */
@ApplicationScoped
public class StockReports {

    public static final String TOPIC = "stock-reports";
    /** The schedule's name, as declared in the configuration. */
    public static final String SCHEDULE = "stock-report";
    /** The payload of the scheduled reports (the schedule's {@code payload}). */
    public static final String SCHEDULED = "stock report";
    /** The payload of a report asked for at once. */
    static final String ASKED_FOR = "stock report (asked for)";

    @Inject
    @Channel("stock-reports-out")
    Emitter<String> reports;

    @Inject
    ReceivedLog log;

    /** Asks for a report now, beside the scheduled ones. */
    public String runNow() {
        Sending.sendAndWait(reports, ASKED_FOR,
                Metadata.of(OutgoingRmqMetadata.builder().withDeliverAt(Instant.now()).build()));
        return ASKED_FOR;
    }

    /** The consumer: runs the report of a tick (its due time is the tick's time). */
    @Incoming("stock-reports")
    public CompletionStage<Void> report(Message<String> report) {
        long tick = (long) report.getMetadata(IncomingRmqMetadata.class).orElseThrow().getScore();
        log.record(report, "for the tick of " + Instant.ofEpochMilli(tick));
        return report.ack();
    }
}
