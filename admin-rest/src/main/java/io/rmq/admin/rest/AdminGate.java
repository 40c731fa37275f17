package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Answers every request 404 while the endpoints are off ({@value AdminSettings#ENABLED} is not
 * {@code true}), before a resource is matched and before anyone is asked to log in. Read on every
 * request. Registered by {@code RmqAdminApplication} only, never discovered (no {@code @Provider}),
 * so it never filters the application's own resources. Stateless; thread-safe.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class AdminGate implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        if (!AdminSettings.enabled(ConfigProvider.getConfig())) {
            request.abortWith(AdminAnswers.error(Response.Status.NOT_FOUND, msg.endpointsOff(AdminSettings.ENABLED)));
        }
    }
}
