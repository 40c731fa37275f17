package io.rmq.admin.rest;

import static io.rmq.admin.rest.i18n.AdminRestLogging.log;
import static io.rmq.admin.rest.i18n.AdminRestMessages.msg;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Answers what the runtime refuses before an endpoint runs (no endpoint at this path: 404; not this method:
 * 405 with its {@code Allow} header; a request it cannot read: 400) with the endpoints' own JSON error. Without it the runtime's
 * mappers answer, which on Open Liberty with MicroProfile Metrics log each such request with a stack trace and
 * name their own classes in a header: anyone could fill the log without logging in. Registered by
 * {@code RmqAdminApplication} only. Stateless; thread-safe.
 */
public class QuietErrors implements ExceptionMapper<RuntimeException> {

    @Override
    public Response toResponse(RuntimeException failure) {
        if (!(failure instanceof WebApplicationException refused)) {
            // the runtime failed to read the request before an endpoint ran (a malformed Accept header makes
            // RESTEasy's matching throw NumberFormatException): the request is bad; the endpoints catch their own
            log.unreadableRequest(failure.toString());
            return AdminAnswers.error(Status.BAD_REQUEST, msg.unreadableRequest());
        }
        int code = refused.getResponse() == null ? 400 : refused.getResponse().getStatus();
        Status status = Status.fromStatusCode(code);
        if (status == null || code >= 500) {
            status = Status.BAD_REQUEST; // the runtime refused the request itself: nothing failed on this side
        }
        Response answer = AdminAnswers.error(status, msg.noSuchEndpoint(status.getStatusCode(), status.getReasonPhrase()));
        String allow = refused.getResponse() == null ? null : refused.getResponse().getHeaderString(HttpHeaders.ALLOW);
        return allow == null ? answer : Response.fromResponse(answer).header(HttpHeaders.ALLOW, allow).build();
    }
}
