package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;
import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.security.Principal;
import java.util.regex.Pattern;

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
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.config.Config;

import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.schedule.ScheduleInfo;
import io.rmq.engine.support.UriCredentials;

/**
 * The recurring schedules (see {@code docs/schedules.md}), under {@code <admin path>/admin/schedules}:
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET schedules}</td><td>the recorded schedules: definition, paused, last and next tick</td></tr>
 *   <tr><td>{@code POST schedules/{name}/pause}</td><td>no instance sends its ticks until it is resumed</td></tr>
 *   <tr><td>{@code POST schedules/{name}/resume}</td><td>the ticks of the pause are not sent; the next one is</td></tr>
 *   <tr><td>{@code POST schedules/{name}/remove}</td><td>deletes its definition and state; running instances stop</td></tr>
 * </table>
 *
 * A name that no schedule can have is answered 400 (RMQ-0940), a schedule that is not recorded 404 (RMQ-0548);
 * other failures as {@link AdminAnswers} says. Each change is audited with the user's name (RMQ-0941; RMQ-0942 when
 * it failed). The role {@value AdminRole#NAME} is required, and a {@code POST} must carry {@code X-Requested-By}
 * ({@link CrossSiteGuard}). One instance per request.
 */
@Path("admin/schedules")
@RequestScoped
@RolesAllowed(AdminRole.NAME)
@DeclareRoles(AdminRole.NAME)
@Produces(MediaType.APPLICATION_JSON)
public class RmqSchedulesResource {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,200}");

    @Inject
    AdminConnection connection;

    @Inject
    Config config;

    @Context
    Application application;

    @Context
    SecurityContext security;

    @GET
    public Response list() {
        if (!OwnApplication.serves(application, RmqSchedulesResource.class)) {
            return OwnApplication.notHere();
        }
        AdminSettings settings = AdminSettings.from(config);
        try {
            RmqAdmin admin = connection.admin(settings);
            return AdminAnswers.ok(ScheduleJson.schedules(admin.displayUri(), settings.keyPrefix(),
                    admin.schedules(settings.keyPrefix())));
        } catch (RuntimeException e) {
            return AdminAnswers.failed("Listing the schedules", UriCredentials.mask(settings.redisUri()), e);
        }
    }

    @POST
    @Path("{name}/pause")
    public Response pause(@PathParam("name") String name) {
        return change("pause", "paused", name, RmqAdmin::pauseSchedule);
    }

    @POST
    @Path("{name}/resume")
    public Response resume(@PathParam("name") String name) {
        return change("resume", "resumed", name, RmqAdmin::resumeSchedule);
    }

    @POST
    @Path("{name}/remove")
    public Response remove(@PathParam("name") String name) {
        return change("remove", "removed", name, RmqAdmin::removeSchedule);
    }

    /** What a change does: the admin call for the key prefix and the schedule's name. */
    private interface Change {
        ScheduleInfo apply(RmqAdmin admin, String keyPrefix, String name);
    }

    private Response change(String verb, String done, String name, Change change) {
        if (!OwnApplication.serves(application, RmqSchedulesResource.class)) {
            return OwnApplication.notHere();
        }
        if (!NAME.matcher(name).matches()) {
            return AdminAnswers.error(Response.Status.BAD_REQUEST, msg.badScheduleName(name).getMessage());
        }
        AdminSettings settings = AdminSettings.from(config);
        RmqAdmin admin;
        try {
            admin = connection.admin(settings);
        } catch (RuntimeException e) {
            return AdminAnswers.failed("Changing schedule '" + name + "'", UriCredentials.mask(settings.redisUri()), e);
        }
        ScheduleInfo info;
        try {
            info = change.apply(admin, settings.keyPrefix(), name);
        } catch (IllegalArgumentException unknown) {
            return AdminAnswers.error(Response.Status.NOT_FOUND, unknown.getMessage()); // RMQ-0548
        } catch (RuntimeException e) {
            log.scheduleChangeFailed(user(), verb, name, String.valueOf(e.getMessage()));
            return AdminAnswers.failed("Changing schedule '" + name + "'", UriCredentials.mask(settings.redisUri()), e);
        }
        log.scheduleChanged(user(), done, name, info.definition().topic().name());
        return AdminAnswers.ok(ScheduleJson.schedule(info));
    }

    private String user() {
        Principal user = security.getUserPrincipal();
        return user == null ? "?" : user.getName();
    }
}
