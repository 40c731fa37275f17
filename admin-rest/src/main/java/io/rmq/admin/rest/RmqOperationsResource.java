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

/**
 * The requeues and purges under way ({@link RunningChanges}), under {@code <admin path>/operations}:
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET operations}</td><td>those under way: id, user, action, topic, selection, start, messages moved</td></tr>
 *   <tr><td>{@code POST operations/{id}/cancel}</td><td>stops one after its current script call; 404 when none has that id</td></tr>
 * </table>
 *
 * The stopped operation answers its own request with what it moved, and is audited (RMQ-0956). The role
 * {@value AdminRole#NAME} is required. One instance per request.
 */
@Path("admin/operations")
@RequestScoped
@RolesAllowed(AdminRole.NAME)
@DeclareRoles(AdminRole.NAME)
@Produces(MediaType.APPLICATION_JSON)
public class RmqOperationsResource {

    @Inject
    RunningChanges changes;

    @Context
    Application application;

    @GET
    public Response list() {
        if (!OwnApplication.serves(application, RmqOperationsResource.class)) {
            return OwnApplication.notHere();
        }
        return AdminAnswers.ok(AdminJson.operations(changes.list()));
    }

    @POST
    @Path("{id}/cancel")
    public Response cancel(@PathParam("id") String id) {
        if (!OwnApplication.serves(application, RmqOperationsResource.class)) {
            return OwnApplication.notHere();
        }
        return changes.cancel(id).map(r -> AdminAnswers.ok(AdminJson.operation(r)))
                .orElseGet(() -> AdminAnswers.error(Response.Status.NOT_FOUND, msg.noSuchOperation(id)));
    }

}
