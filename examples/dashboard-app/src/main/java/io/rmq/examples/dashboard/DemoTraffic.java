package io.rmq.examples.dashboard;

import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.rmq.connector.OutgoingRmqMetadata;

/**
 * A little steady traffic for the dashboard to show, every {@value #TICK_MILLIS} ms: two orders due within
 * the next 8 s, six price refreshes of 20 products (product 1 more often than the others, so one slot is
 * deeper, and repeats merge), one email with a random priority (one in eight bounces and ends in the dead
 * queue). Off with {@code rmq.demo.traffic=false}. Its thread {@code rmq-demo-traffic} stops with the
 * application.
 */
@ApplicationScoped
public class DemoTraffic {

    static final long TICK_MILLIS = 500;
    private static final Logger LOG = Logger.getLogger(DemoTraffic.class.getName());

    @Inject
    @Channel("orders-out")
    Emitter<String> orders;

    @Inject
    @Channel("prices-out")
    Emitter<String> prices;

    @Inject
    @Channel("emails-out")
    Emitter<String> emails;

    @Inject
    @ConfigProperty(name = "rmq.demo.traffic", defaultValue = "true")
    boolean enabled;

    private ScheduledExecutorService thread;
    private long tick;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (!enabled) {
            LOG.info("RMQ dashboard example: no demo traffic (rmq.demo.traffic=false)");
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rmq-demo-traffic");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::sendSome, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        LOG.info("RMQ dashboard example: sending demo traffic to the topics orders, prices and emails");
    }

    private void sendSome() {
        try {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            tick++;
            for (int i = 0; i < 2; i++) {
                send(orders, "order-" + tick + "-" + i + " times out",
                        OutgoingRmqMetadata.builder().withDeliverAt(Instant.now().plusMillis(random.nextLong(8_000))).build());
            }
            for (int i = 0; i < 6; i++) {
                int product = random.nextInt(4) == 0 ? 1 : random.nextInt(20);
                send(prices, "refresh price of product " + product,
                        OutgoingRmqMetadata.builder().withSlotBasis("product-" + product).build());
            }
            boolean bounces = random.nextInt(8) == 0;
            send(emails, (bounces ? "bounce: " : "") + "email " + tick + " to customer-" + random.nextInt(1000) + "@example.org",
                    OutgoingRmqMetadata.builder().withPriority(random.nextInt(10)).build());
        } catch (RuntimeException e) {
            // the application is stopping, or the emitters are full while Redis is away: try again next tick
            LOG.log(Level.FINE, "RMQ dashboard example: demo traffic skipped a tick", e);
        }
    }

    private static void send(Emitter<String> emitter, String payload, OutgoingRmqMetadata metadata) {
        emitter.send(Message.of(payload).addMetadata(metadata));
    }

    @PreDestroy
    void stop() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
