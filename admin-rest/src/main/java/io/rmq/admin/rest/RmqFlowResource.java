package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;

import java.io.InputStream;
import java.security.Principal;
import java.util.function.Function;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.admin.FlowUpdate;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.admin.TopicFlow;
import io.rmq.engine.support.UriCredentials;
import io.rmq.engine.topic.TopicDefinition;

/**
 * A topic's flow settings (limits, per-key limits, fair share and weights, priority aging, adaptive slow-down; see
 * {@code docs/flow-control.md}), under {@code <admin path>/admin/topics/{topic}/flow}, changed live:
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET flow}</td><td>the settings in force, the adaptive state, what configuration asked for</td></tr>
 *   <tr><td>{@code PUT flow}</td><td>a partial update ({@link FlowRequest}): only the members given change</td></tr>
 *   <tr><td>{@code PUT flow/weights/{tenant}}</td><td>{@code {"weight": 3}}: the tenant's weight in fair share</td></tr>
 *   <tr><td>{@code DELETE flow/weights/{tenant}}</td><td>the tenant falls back to the default weight</td></tr>
 * </table>
 *
 * Each answer is the settings after the call ({@link FlowJson}). A bad body, value or tenant is answered 400 and
 * changes nothing; an unknown topic 404. Each change is audited with the user's name and what it set (RMQ-0951;
 * RMQ-0956 when its outcome is unknown). The role {@value AdminRole#NAME} is required, and a change must carry
 * {@code X-Requested-By} ({@link CrossSiteGuard}). One instance per request.
 */
@Path("admin/topics/{topic}/flow")
@RequestScoped
@RolesAllowed(AdminRole.NAME)
@DeclareRoles(AdminRole.NAME)
@Produces(MediaType.APPLICATION_JSON)
public class RmqFlowResource {

    @Inject
    AdminConnection connection;

    @Inject
    Config config;

    @Context
    Application application;

    @Context
    SecurityContext security;

    @GET
    public Response settings(@PathParam("topic") String topic) {
        return answer("Reading the flow settings of topic '" + topic + "'", topic, flow -> flow);
    }

    @PUT
    @Consumes(MediaType.WILDCARD)
    public Response update(@PathParam("topic") String topic, InputStream body) {
        return answer("Changing the flow settings of topic '" + topic + "'", topic, flow -> {
            FlowUpdate update = FlowRequest.read(RequestBody.read(body));
            return change(flow, "changed flow settings", update);
        });
    }

    @PUT
    @Path("weights/{tenant}")
    @Consumes(MediaType.WILDCARD)
    public Response setWeight(@PathParam("topic") String topic, @PathParam("tenant") String tenant, InputStream body) {
        return answer("Setting a tenant's weight on topic '" + topic + "'", topic, flow -> {
            double weight = FlowRequest.weight(RequestBody.read(body));
            return change(flow, "set a tenant's weight", FlowUpdate.builder().weight(tenant, weight).build());
        });
    }

    @DELETE
    @Path("weights/{tenant}")
    public Response removeWeight(@PathParam("topic") String topic, @PathParam("tenant") String tenant) {
        return answer("Removing a tenant's weight on topic '" + topic + "'", topic,
                flow -> change(flow, "removed a tenant's weight", FlowUpdate.builder().removeWeight(tenant).build()));
    }

    private TopicFlow change(TopicFlow flow, String action, FlowUpdate update) {
        String what = update.toString();
        long gen;
        try {
            gen = flow.apply(update);
        } catch (IllegalArgumentException refused) {
            throw refused; // nothing written: answered 400, not audited
        } catch (RuntimeException e) {
            log.changeFailed(user(), action, flow.topic().name(), what + ", outcome unknown", String.valueOf(e.getMessage()));
            throw e;
        }
        log.changed(user(), action, flow.topic().name(), what + ", generation " + gen);
        return flow;
    }

    private Response answer(String description, String topic, Function<TopicFlow, TopicFlow> operation) {
        if (!OwnApplication.serves(application, RmqFlowResource.class)) {
            return OwnApplication.notHere();
        }
        AdminSettings settings = AdminSettings.from(config);
        try {
            RmqAdmin admin = connection.admin(settings);
            TopicDefinition definition;
            try {
                definition = admin.topic(topic, settings.keyPrefix());
            } catch (IllegalArgumentException rmq0312) {
                throw new AdminAnswers.UnknownTopicException(rmq0312);
            }
            TopicFlow flow = operation.apply(admin.flow(definition));
            return AdminAnswers.ok(FlowJson.settings(definition, flow.settings()));
        } catch (RuntimeException e) {
            return AdminAnswers.failed(description, UriCredentials.mask(settings.redisUri()), e);
        }
    }

    private String user() {
        Principal user = security.getUserPrincipal();
        return user == null ? "?" : user.getName();
    }
}
