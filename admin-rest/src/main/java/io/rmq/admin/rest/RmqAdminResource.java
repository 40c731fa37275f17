package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;
import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.io.InputStream;
import java.security.Principal;
import java.time.Instant;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.admin.DeadCursor;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.settlement.EngineEvents;
import io.rmq.engine.support.UriCredentials;
import io.rmq.engine.topic.SlotRouter;
import io.rmq.engine.topic.TopicDefinition;

/**
 * The admin endpoints, one per operation of {@link RmqAdmin}, under
 * {@code <context root><application path>/admin} ({@code /rmq/admin} by default, see
 * {@code RmqAdminApplication}):
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET topics}</td><td>the recorded topics</td></tr>
 *   <tr><td>{@code GET topics/{topic}/stats}</td><td>each slot's counts and the totals</td></tr>
 *   <tr><td>{@code GET topics/{topic}/dead?cursor=&limit=}</td><td>a page of dead messages</td></tr>
 *   <tr><td>{@code POST topics/{topic}/dead/requeue}</td><td>requeue a selection ({@link DeadActionRequest})</td></tr>
 *   <tr><td>{@code POST topics/{topic}/dead/purge}</td><td>delete a selection</td></tr>
 *   <tr><td>{@code POST topics/{topic}/pending/remove}</td><td>delete a pending message ({@link PendingMessageRequest})</td></tr>
 *   <tr><td>{@code POST topics/{topic}/pending/due-now}</td><td>make a pending message due now</td></tr>
 *   <tr><td>{@code POST topics/{topic}/pause}, {@code .../resume}</td><td>pause or resume consumption cluster-wide</td></tr>
 * </table>
 *
 * Answers are JSON ({@link AdminJson}); failures are answered as {@link AdminAnswers} says. A request
 * body is read as JSON whatever its content type, strictly and bounded ({@link RequestBody}, {@link StrictJson}).
 * Every change is logged with the user's name (RMQ-0951); a requeue or purge also when it starts (RMQ-0955)
 * and when it fails or is stopped (RMQ-0956), with the messages it moved; a requeue or purge stops when its client
 * goes away ({@link LongAnswer}). The role {@value AdminRole#NAME} is required for all. One instance per request.
 */
@Path("admin")
@RequestScoped
@RolesAllowed(AdminRole.NAME)
@DeclareRoles(AdminRole.NAME)
@Produces(MediaType.APPLICATION_JSON)
public class RmqAdminResource {

    /** Dead messages per page when the request gives no {@code limit}. */
    static final int DEFAULT_PAGE_SIZE = 20;
    /** The most dead messages one page may hold. */
    static final int MAX_PAGE_SIZE = 1000;

    @Inject
    AdminConnection connection;

    @Inject
    Config config;

    @Inject
    RunningChanges changes;

    @Context
    Application application;

    @Context
    SecurityContext security;

    @GET
    @Path("topics")
    public Response topics() {
        return answer("Listing the topics", redis -> AdminJson.topics(redis.admin().displayUri(), redis.keyPrefix(),
                redis.admin().topics(redis.keyPrefix())));
    }

    @GET
    @Path("topics/{topic}/stats")
    public Response stats(@PathParam("topic") String topic) {
        return answer("Reading the stats of topic '" + topic + "'", redis -> {
            TopicDefinition definition = redis.topic(topic);
            return AdminJson.stats(redis.admin().stats(definition));
        });
    }

    @GET
    @Path("topics/{topic}/dead")
    public Response dead(@PathParam("topic") String topic, @QueryParam("cursor") @DefaultValue("0:0") String cursor,
            @QueryParam("limit") @DefaultValue("" + DEFAULT_PAGE_SIZE) String limit) {
        return answer("Listing dead messages of topic '" + topic + "'", redis -> {
            int pageSize = pageSize(limit);
            TopicDefinition definition = redis.topic(topic);
            DeadCursor from = cursor(cursor, definition);
            return AdminJson.deadPage(definition, from, redis.admin().dead(definition, from, pageSize));
        });
    }

    /**
     * Tells a requeue to the application's {@link EngineEvents} beans (the connector's, when the application
     * has it, counts it in {@code rmq.messages.requeued}); looked up at call time, so the endpoints work without
     * them.
     */
    private static void countRequeued(TopicDefinition topic, long count) {
        try {
            for (EngineEvents events : CDI.current().select(EngineEvents.class, Any.Literal.INSTANCE)) {
                events.requeued(topic, count);
            }
        } catch (IllegalStateException e) {
            // no CDI container here: nobody to tell
        }
    }

    @POST
    @Path("topics/{topic}/dead/requeue")
    @Consumes(MediaType.WILDCARD)
    public Response requeue(@PathParam("topic") String topic, InputStream body) {
        return answering("Requeuing dead messages of topic '" + topic + "'", redis -> {
            DeadActionRequest request = DeadActionRequest.requeue(RequestBody.read(body), Instant.now());
            TopicDefinition definition = redis.topic(topic);
            if (request.dryRun()) {
                return AdminAnswers.ok(AdminJson.deadAction(definition, "requeue", request,
                        redis.admin().countDead(definition, request.selection())));
            }
            RunningChanges.Running running = changes.start(user(), new RunningChanges.Change("requeuing dead messages",
                    "requeued dead messages", definition, "selection: " + request.description() + ", at most " + request.rate()
                    + "/s"), redis.admin(), redis.keyPrefix(),
                    progress -> redis.admin().requeueDead(definition, request.selection(), request.rate(), progress));
            return redis.longAnswer(running, "Requeuing dead messages of topic '" + topic + "'", count -> {
                countRequeued(definition, count);
                return AdminJson.deadAction(definition, "requeue", request, count);
            });
        });
    }

    @POST
    @Path("topics/{topic}/dead/purge")
    @Consumes(MediaType.WILDCARD)
    public Response purge(@PathParam("topic") String topic, InputStream body) {
        return answering("Purging dead messages of topic '" + topic + "'", redis -> {
            DeadActionRequest request = DeadActionRequest.purge(RequestBody.read(body), Instant.now());
            TopicDefinition definition = redis.topic(topic);
            if (request.dryRun()) {
                return AdminAnswers.ok(AdminJson.deadAction(definition, "purge", request,
                        redis.admin().countDead(definition, request.selection())));
            }
            RunningChanges.Running running = changes.start(user(), new RunningChanges.Change("purging dead messages",
                    "purged dead messages", definition, "selection: " + request.description()), redis.admin(), redis.keyPrefix(),
                    progress -> redis.admin().purgeDead(definition, request.selection(), progress));
            return redis.longAnswer(running, "Purging dead messages of topic '" + topic + "'",
                    count -> AdminJson.deadAction(definition, "purge", request, count));
        });
    }

    @POST
    @Path("topics/{topic}/pending/remove")
    @Consumes(MediaType.WILDCARD)
    public Response removePending(@PathParam("topic") String topic, InputStream body) {
        return pendingChange("Removing a pending message of topic '" + topic + "'", topic, body, "remove",
                "removed a pending message", "removed", (admin, definition, request) ->
                        admin.removePending(definition, request.content(), request.slotBasis()));
    }

    @POST
    @Path("topics/{topic}/pending/due-now")
    @Consumes(MediaType.WILDCARD)
    public Response makeDueNow(@PathParam("topic") String topic, InputStream body) {
        return pendingChange("Making a pending message of topic '" + topic + "' due", topic, body, "due-now",
                "made a pending message due now", "due now", (admin, definition, request) ->
                        admin.makeDueNow(definition, request.content(), request.slotBasis()));
    }

    /** A change to one pending message: whether it was pending, in the answer and the audit line. */
    private interface PendingChange {
        boolean apply(RmqAdmin admin, TopicDefinition definition, PendingMessageRequest request);
    }

    private Response pendingChange(String description, String topic, InputStream body, String action, String audited,
            String done, PendingChange change) {
        return answer(description, redis -> {
            PendingMessageRequest request = PendingMessageRequest.read(RequestBody.read(body));
            TopicDefinition definition = redis.topic(topic);
            int slot = SlotRouter.slotOf(request.slotBasis(), request.content(), definition.slotAmount());
            boolean pending = audited(audited, definition, "slot " + slot,
                    () -> change.apply(redis.admin(), definition, request));
            audit(audited, definition, "slot " + slot + ", " + (pending ? done : "was not pending"));
            return AdminJson.pending(definition, action, slot, pending);
        });
    }

    @POST
    @Path("topics/{topic}/pause")
    public Response pause(@PathParam("topic") String topic) {
        return answer("Pausing topic '" + topic + "'", redis -> {
            TopicDefinition definition = redis.topic(topic);
            audited("paused consumption", definition, slots(definition), () -> redis.admin().pause(definition));
            audit("paused consumption", definition, slots(definition));
            return AdminJson.paused(definition, true);
        });
    }

    @POST
    @Path("topics/{topic}/resume")
    public Response resume(@PathParam("topic") String topic) {
        return answer("Resuming topic '" + topic + "'", redis -> {
            TopicDefinition definition = redis.topic(topic);
            audited("resumed consumption", definition, slots(definition), () -> redis.admin().resume(definition));
            audit("resumed consumption", definition, slots(definition));
            return AdminJson.paused(definition, false);
        });
    }

    /** What an endpoint does with the Redis of the configuration. */
    private interface Operation {
        JsonObject run(Redis redis);
    }

    /**
     * Runs {@code operation} against the configured Redis and answers with its JSON, or with the
     * error its failure maps to. Only under {@code RmqAdminApplication}'s path (see its class comment).
     */
    private Response answer(String description, Operation operation) {
        return answering(description, redis -> AdminAnswers.ok(operation.run(redis)));
    }

    /** What an endpoint that answers in its own way ({@link LongAnswer}) does with the Redis of the configuration. */
    private interface Answering {
        Response run(Redis redis);
    }

    /** {@link #answer}, for an endpoint that answers in its own way. */
    private Response answering(String description, Answering operation) {
        if (!OwnApplication.serves(application, RmqAdminResource.class)) {
            return OwnApplication.notHere();
        }
        Redis redis = new Redis(AdminSettings.from(config));
        try {
            return operation.run(redis);
        } catch (RuntimeException e) {
            return AdminAnswers.failed(description, UriCredentials.mask(redis.settings.redisUri()), e);
        }
    }

    private void audit(String action, TopicDefinition topic, String outcome) {
        log.changed(user(), action, topic.name(), outcome);
    }

    /**
     * Runs a change made in one call to Redis, and audits its failure (RMQ-0956: the call may or may not have
     * taken effect); its success is the caller's to audit, with the outcome.
     */
    private <T> T audited(String action, TopicDefinition topic, String where, Supplier<T> change) {
        try {
            return change.get();
        } catch (RuntimeException e) {
            log.changeFailed(user(), action, topic.name(), where + ", outcome unknown", String.valueOf(e.getMessage()));
            throw e;
        }
    }

    private void audited(String action, TopicDefinition topic, String where, Runnable change) {
        audited(action, topic, where, () -> {
            change.run();
            return null;
        });
    }

    private String user() {
        Principal user = security.getUserPrincipal();
        return user == null ? "?" : user.getName();
    }

    private static String slots(TopicDefinition topic) {
        return topic.slotAmount() == 1 ? "its slot" : "all " + topic.slotAmount() + " slots";
    }

    private static int pageSize(String limit) {
        try {
            int n = Integer.parseInt(limit.strip());
            if (n >= 1 && n <= MAX_PAGE_SIZE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw msg.outOfRange("limit", limit, 1, MAX_PAGE_SIZE);
    }

    private static DeadCursor cursor(String text, TopicDefinition topic) {
        try {
            DeadCursor cursor = DeadCursor.parse(text.strip());
            if (cursor.slot() < topic.slotAmount()) {
                return cursor;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw msg.badCursor(text, topic.slotAmount(), DeadCursor.MAX_OFFSET);
    }

    /** The Redis of this request's configuration, connected on first use, and the key prefix of its topics. */
    private final class Redis {

        private final AdminSettings settings;
        private RmqAdmin admin;

        Redis(AdminSettings settings) {
            this.settings = settings;
        }

        RmqAdmin admin() {
            if (admin == null) {
                admin = connection.admin(settings);
            }
            return admin;
        }

        String keyPrefix() {
            return settings.keyPrefix();
        }

        /** The answer to {@code running}, a requeue or purge, that stops it when its client goes away. */
        Response longAnswer(RunningChanges.Running running, String operation, LongFunction<JsonObject> done) {
            return LongAnswer.of(running, operation, UriCredentials.mask(settings.redisUri()), done);
        }

        /** The recorded topic; {@link AdminAnswers.UnknownTopicException} (404) when it is not recorded. */
        TopicDefinition topic(String name) {
            try {
                return admin().topic(name, settings.keyPrefix());
            } catch (IllegalArgumentException rmq0312) {
                throw new AdminAnswers.UnknownTopicException(rmq0312);
            }
        }
    }
}
