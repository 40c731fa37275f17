package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;

/**
 * Whether an endpoint was reached under the admin endpoints' own Jakarta REST application, the one that lists
 * it among its classes, rather than under an application of the WAR that serves every resource it finds (see
 * the class comment of {@code RmqAdminApplication}). Stateless.
 */
final class OwnApplication {

    /** The application class whose path alone serves the endpoints, named in the 404 answer. */
    static final String NAME = "io.rmq.admin.rest.RmqAdminApplication";

    private OwnApplication() {
    }

    /** Whether {@code application} lists {@code endpoint} among its own classes. */
    static boolean serves(Application application, Class<?> endpoint) {
        return application != null && application.getClasses().contains(endpoint);
    }

    /** The answer to a request that reached an endpoint under another application: 404, naming the right one. */
    static Response notHere() {
        return AdminAnswers.error(Response.Status.NOT_FOUND, msg.notHere(NAME));
    }
}
