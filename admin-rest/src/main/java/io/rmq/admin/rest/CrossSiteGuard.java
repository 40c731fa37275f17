package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;

/**
 * Refuses (403) a request that changes something unless it carries the header {@value #HEADER} (any
 * value). A page of another site can make a browser send a form or a plain {@code POST} to the admin
 * endpoints, with the credentials the browser holds for them (Basic authentication, a session cookie);
 * it cannot add a header of its own without asking the server first (a CORS preflight), which these
 * endpoints never allow. So a request with the header comes from a client that chose to send it: the
 * dashboard, {@code curl -H}, a script. Reads ({@code GET}, {@code HEAD}, {@code OPTIONS}) need no
 * header. Registered by {@code RmqAdminApplication} only. Stateless; thread-safe.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 50)
public class CrossSiteGuard implements ContainerRequestFilter {

    /** The header every request that changes something must carry: {@value}. */
    public static final String HEADER = "X-Requested-By";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void filter(ContainerRequestContext request) {
        if (SAFE_METHODS.contains(request.getMethod())) {
            return;
        }
        String value = request.getHeaderString(HEADER);
        if (value == null || value.isBlank()) {
            request.abortWith(AdminAnswers.error(Response.Status.FORBIDDEN, msg.crossSiteHeaderMissing(request.getMethod(), HEADER)));
        }
    }
}
