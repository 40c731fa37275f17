package io.rmq.admin.rest.i18n;

import java.util.Collection;

/**
 * The texts of the admin endpoints' error answers, each with a stable id ({@code RMQ-09xx}); the
 * engine's own ({@code RMQ-0312} unknown topic, {@code RMQ-0313} Redis unreachable, ...) pass through
 * as they are. A bad request is an {@link IllegalArgumentException} carrying one of these texts, which
 * the resource answers with 400. Use the shared instance {@link #msg}; thread-safe.
 */
public final class AdminRestMessages {

    /** The shared instance. */
    public static final AdminRestMessages msg = new AdminRestMessages();

    private AdminRestMessages() {
    }

    /** RMQ-0901: the answer of every endpoint while they are off. */
    public String endpointsOff(String enabledKey) {
        return "RMQ-0901 The RMQ admin endpoints are off; set " + enabledKey + "=true to turn them on";
    }

    /** RMQ-0902: the request body is not a JSON object. */
    public IllegalArgumentException notAJsonObject(String reason) {
        return new IllegalArgumentException("RMQ-0902 The request body must be a JSON object: " + reason);
    }

    /** RMQ-0903: the request body has a member this operation does not know (a typo must not go unnoticed). */
    public IllegalArgumentException unknownMember(String member, Collection<String> known) {
        return new IllegalArgumentException("RMQ-0903 Unknown member '" + member + "' in the request body; known: "
                + String.join(", ", known));
    }

    /** RMQ-0904: a member of the request body has the wrong JSON type. */
    public IllegalArgumentException wrongType(String member, String expected) {
        return new IllegalArgumentException("RMQ-0904 '" + member + "' must be " + expected);
    }

    /** RMQ-0905: a requeue or purge needs exactly one selection. */
    public IllegalArgumentException oneSelection(Collection<String> selections, Collection<String> given) {
        return new IllegalArgumentException("RMQ-0905 Give exactly one selection of " + String.join(", ", selections)
                + "; given: " + (given.isEmpty() ? "none" : String.join(", ", given)));
    }

    /** RMQ-0906: a message's content is given neither or twice. */
    public IllegalArgumentException oneContent(String text, String base64) {
        return new IllegalArgumentException("RMQ-0906 Give the message's content as exactly one of '" + text
                + "' (UTF-8 text) and '" + base64 + "' (Base64)");
    }

    /** RMQ-0907: a value that should be Base64 is not. */
    public IllegalArgumentException notBase64(String member, String value) {
        return new IllegalArgumentException("RMQ-0907 '" + member + "' must be Base64 (RFC 4648), was '" + value + "'");
    }

    /** RMQ-0908: an age is neither a short duration nor an ISO-8601 one. */
    public IllegalArgumentException badAge(String member, String value) {
        return new IllegalArgumentException("RMQ-0908 '" + member + "' must be an age such as 500ms, 90s, 15m, 2h, 7d"
                + " or ISO-8601 PT1H30M, was '" + value + "'");
    }

    /** RMQ-0909: a time is not ISO-8601 with an offset. */
    public IllegalArgumentException badTime(String member, String value) {
        return new IllegalArgumentException("RMQ-0909 '" + member + "' must be an ISO-8601 time with an offset, such as"
                + " 2025-01-31T12:00:00Z, was '" + value + "'");
    }

    /** RMQ-0910: a number out of its range. */
    public IllegalArgumentException outOfRange(String parameter, String value, long min, long max) {
        return new IllegalArgumentException("RMQ-0910 '" + parameter + "' must be a whole number from " + min + " to "
                + max + ", was '" + value + "'");
    }

    /** RMQ-0911: a dead-queue cursor that is malformed or points past the topic's slots. */
    public IllegalArgumentException badCursor(String cursor, int slotAmount) {
        return new IllegalArgumentException("RMQ-0911 'cursor' must be <slot>:<offset> with a slot from 0 to "
                + (slotAmount - 1) + " (as 'next' of the previous page gives it), was '" + cursor + "'");
    }

    /** RMQ-0912: a text member that must not be empty is. */
    public IllegalArgumentException empty(String member) {
        return new IllegalArgumentException("RMQ-0912 '" + member + "' must not be empty");
    }

    /** RMQ-0913: Redis answered a command with an error (a key of the wrong type, a script error, no permission). */
    public String redisErrorReply(String uri, String reply) {
        return "RMQ-0913 Redis at " + uri + " answered with an error: " + reply;
    }

    /** RMQ-0914: an operation failed for a reason nobody foresaw; the server log has the stack trace. */
    public String unexpected(String operation, String cause) {
        return "RMQ-0914 " + operation + " failed: " + cause + " (the server log has the details)";
    }

    /** RMQ-0915: the configured Redis URI cannot be parsed; both texts must already be free of credentials. */
    public String badRedisUri(String property, String uri, String reason) {
        return "RMQ-0915 " + property + " (or the connector's redis-uri) '" + uri + "' is not a Redis URI: " + reason;
    }

    /** RMQ-0916: the admin resource was reached under another Jakarta REST application of the WAR. */
    public String notHere(String applicationClass) {
        return "RMQ-0916 The RMQ admin endpoints answer only under the path of " + applicationClass;
    }

    /** RMQ-0930: a request that changes something came without the header that shows it is not cross-site. */
    public String crossSiteHeaderMissing(String method, String header) {
        return "RMQ-0930 A " + method + " to the RMQ admin endpoints must carry the header " + header
                + " (any value, e.g. '" + header + ": rmq'): without it the request could come from a page of another site";
    }
}
