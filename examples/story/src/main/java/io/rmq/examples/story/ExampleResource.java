package io.rmq.examples.story;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.rmq.engine.pending.PendingOperationException;

/**
 * Sends messages of the three kinds and shows what the consumers received:
 * <ul>
 *   <li>{@code POST /api/prices/{sku}}: a price changed; asks for its cached price to be refreshed (merged);</li>
 *   <li>{@code POST /api/tasks?priority=P} with the task as the body: queues a task (highest priority first);</li>
 *   <li>{@code POST /api/orders/{id}/timeout?delayMs=D}: closes the order if unpaid after D ms (scheduled);</li>
 *   <li>{@code POST /api/orders/{id}/paid}: the order was paid: cancels its time-out if it is still pending;</li>
 *   <li>{@code POST /api/reports}: asks for a stock report now, beside the recurring ones of the schedule;</li>
 *   <li>{@code GET /api/received}: what the consumers received, oldest first; {@code DELETE} forgets it.</li>
 * </ul>
 * A message the connector refuses is answered with 400 and its reason; Redis not answering with 503.
 * The paths are relative: each application puts them under {@code /api} (Open Liberty: the
 * {@code @ApplicationPath} of its {@code Application}; Quarkus: {@code quarkus.rest.path}). The
 * sending methods wait for Redis, so on Quarkus they run on worker threads (they return a
 * {@link Response}, not a reactive type).
 */
@Path("/")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class ExampleResource {

    /** What was sent. */
    public record Sent(String payload, String topic, String note) {
    }

    @Inject
    PriceCacheRefresher prices;

    @Inject
    TaskBoard tasks;

    @Inject
    OrderTimeouts orders;

    @Inject
    StockReports reports;

    @Inject
    ReceivedLog received;

    @POST
    @Path("prices/{sku}")
    public Response priceChanged(@PathParam("sku") String sku) {
        return send(() -> new Sent(prices.priceChanged(sku), PriceCacheRefresher.TOPIC,
                "due 3 s after the first request; requests sent meanwhile merge into it"));
    }

    @POST
    @Path("tasks")
    @Consumes(MediaType.WILDCARD)
    public Response queueTask(@QueryParam("priority") Double priority, String task) {
        if (priority == null || priority.isNaN() || priority.isInfinite()) {
            return badRequest("give the task's priority: ?priority=<number>, higher is taken first");
        }
        if (task == null || task.isBlank()) {
            return badRequest("give the task as the request body");
        }
        return send(() -> {
            tasks.queue(task.strip(), priority);
            return new Sent(task.strip(), TaskBoard.TOPIC, "priority " + priority);
        });
    }

    @POST
    @Path("orders/{id}/timeout")
    public Response scheduleTimeout(@PathParam("id") String orderId, @QueryParam("delayMs") @DefaultValue("5000") long delayMs) {
        if (delayMs < 0) {
            return badRequest("delayMs must be >= 0");
        }
        return send(() -> {
            Instant due = orders.scheduleTimeout(orderId, Duration.ofMillis(delayMs));
            return new Sent(OrderTimeouts.COMMAND_PREFIX + orderId, OrderTimeouts.TOPIC, "due at " + due);
        });
    }

    /** What paying an order did to its time-out. */
    public record Paid(String order, String timeout, boolean cancelled, boolean inFlight) {
    }

    @POST
    @Path("orders/{id}/paid")
    public Response orderPaid(@PathParam("id") String orderId) {
        try {
            var cancellation = orders.orderPaid(orderId);
            String outcome = switch (cancellation.outcome()) {
                case CANCELLED -> "cancelled: it will not be delivered";
                case IN_FLIGHT -> "already being delivered: too late to cancel";
                case NOT_FOUND -> "not pending: never scheduled, already delivered, or cancelled before";
            };
            return Response.ok(new Paid(orderId, outcome, cancellation.cancelled(), cancellation.inFlight())).build();
        } catch (PendingOperationException unavailable) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.TEXT_PLAIN)
                    .entity(unavailable.getMessage() + "\n").build();
        }
    }

    @POST
    @Path("reports")
    public Response runReport() {
        return send(() -> new Sent(reports.runNow(), StockReports.TOPIC,
                "at once; the schedule '" + StockReports.SCHEDULE + "' sends one a tick besides"));
    }

    @GET
    @Path("received")
    public List<Received> received() {
        return received.all();
    }

    @DELETE
    @Path("received")
    public Response forget() {
        received.clear();
        return Response.noContent().build();
    }

    private static Response send(Supplier<Sent> sender) {
        try {
            return Response.accepted(sender.get()).build();
        } catch (IllegalArgumentException refused) {
            return badRequest(refused.getMessage());
        } catch (IllegalStateException unavailable) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.TEXT_PLAIN)
                    .entity(unavailable.getMessage() + "\n").build();
        }
    }

    private static Response badRequest(String reason) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN).entity(reason + "\n").build();
    }
}
