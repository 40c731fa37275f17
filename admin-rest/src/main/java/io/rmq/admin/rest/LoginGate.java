package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.io.IOException;

import jakarta.annotation.Priority;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * Asks for a login (401) before a resource is matched, whatever the path or method: a client that has not
 * logged in cannot tell an endpoint from an unknown path (404) or a method it does not answer (405). The
 * container authenticates (its configured mechanism, e.g. Basic); the role is checked afterwards, on the
 * matched endpoint ({@code @RolesAllowed}). Registered by {@code RmqAdminApplication} only. Thread-safe.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 75)
public class LoginGate implements ContainerRequestFilter {

    /** The challenge when the container gives none. */
    private static final String BASIC = "Basic realm=\"" + AdminRole.NAME + "\"";

    @Context
    HttpServletRequest servletRequest;

    @Context
    HttpServletResponse servletResponse;

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.getSecurityContext().getUserPrincipal() != null || authenticated()) {
            return;
        }
        String challenge = servletResponse == null ? null : servletResponse.getHeader(HttpHeaders.WWW_AUTHENTICATE);
        request.abortWith(Response.fromResponse(AdminAnswers.error(Response.Status.UNAUTHORIZED, msg.loginRequired()))
                .header(HttpHeaders.WWW_AUTHENTICATE, challenge == null ? BASIC : challenge).build());
    }

    private boolean authenticated() {
        if (servletRequest == null || servletResponse == null) {
            return false;
        }
        try {
            return servletRequest.authenticate(servletResponse);
        } catch (ServletException | IOException | IllegalStateException refused) {
            return false; // wrong credentials or none: asked for below
        }
    }
}
