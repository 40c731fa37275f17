package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.support.UriCredentials;

/**
 * The requeues and purges under way on the topics of the configured key prefix, under {@code <admin path>/operations},
 * whichever process runs them (this instance, another one, the command-line tool): they are recorded in Redis
 * ({@link RmqAdmin#operations}).
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET operations}</td><td>those under way: id, user, action, topic, selection, start, messages moved</td></tr>
 *   <tr><td>{@code POST operations/{id}/cancel}</td><td>stops one within about a second, after its current script call;
 *       404 when none has that id</td></tr>
 * </table>
 *
 * A stopped operation answers its own request with what it moved, and is audited (RMQ-0956) by the process that
 * runs it. The role {@value AdminRole#NAME} is required. One instance per request.
 */
@Path("admin/operations")
@RequestScoped
@RolesAllowed(AdminRole.NAME)
@DeclareRoles(AdminRole.NAME)
@Produces(MediaType.APPLICATION_JSON)
public class RmqOperationsResource {

    @Inject
    AdminConnection connection;

    @Inject
    Config config;

    @Context
    Application application;

    @GET
    public Response list() {
        return answer("Listing the admin operations", (admin, keyPrefix) ->
                AdminAnswers.ok(AdminJson.operations(admin.operations(keyPrefix))));
    }

    @POST
    @Path("{id}/cancel")
    public Response cancel(@PathParam("id") String id) {
        return answer("Cancelling an admin operation", (admin, keyPrefix) -> admin.cancelOperation(keyPrefix, id)
                .map(r -> AdminAnswers.ok(AdminJson.operation(r)))
                .orElseGet(() -> AdminAnswers.error(Response.Status.NOT_FOUND, msg.noSuchOperation(id))));
    }

    /** What an endpoint does with the admin of the configured Redis and key prefix. */
    private interface Operation {
        Response run(RmqAdmin admin, String keyPrefix);
    }

    private Response answer(String description, Operation operation) {
        if (!OwnApplication.serves(application, RmqOperationsResource.class)) {
            return OwnApplication.notHere();
        }
        AdminSettings settings = AdminSettings.from(config);
        try {
            return operation.run(connection.admin(settings), settings.keyPrefix());
        } catch (RuntimeException e) {
            return AdminAnswers.failed(description, UriCredentials.mask(settings.redisUri()), e);
        }
    }
}
