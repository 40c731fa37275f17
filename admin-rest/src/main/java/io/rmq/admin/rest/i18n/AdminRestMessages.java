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
        return new IllegalArgumentException("RMQ-0902 The request body must be a JSON object: " + Shown.text(reason));
    }

    /** RMQ-0903: the request body has a member this operation does not know (a typo must not go unnoticed). */
    public IllegalArgumentException unknownMember(String member, Collection<String> known) {
        return new IllegalArgumentException("RMQ-0903 Unknown member '" + Shown.text(member) + "' in the request body; known: "
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
        return new IllegalArgumentException("RMQ-0907 '" + member + "' must be Base64 (RFC 4648), was '" + Shown.text(value) + "'");
    }

    /** RMQ-0908: an age is neither a short duration nor an ISO-8601 one. */
    public IllegalArgumentException badAge(String member, String value) {
        return new IllegalArgumentException("RMQ-0908 '" + member + "' must be an age such as 500ms, 90s, 15m, 2h, 7d"
                + " or ISO-8601 PT1H30M, was '" + Shown.text(value) + "'");
    }

    /** RMQ-0909: a time is not ISO-8601 with an offset. */
    public IllegalArgumentException badTime(String member, String value) {
        return new IllegalArgumentException("RMQ-0909 '" + member + "' must be an ISO-8601 time with an offset, such as"
                + " 2025-01-31T12:00:00Z (years 1970 to 9999), was '" + Shown.text(value) + "'");
    }

    /** RMQ-0910: a number out of its range. */
    public IllegalArgumentException outOfRange(String parameter, String value, long min, long max) {
        return new IllegalArgumentException("RMQ-0910 '" + parameter + "' must be a whole number from " + min + " to "
                + max + ", was '" + Shown.text(value) + "'");
    }

    /** RMQ-0911: a dead-queue cursor that is malformed or points past the topic's slots. */
    public IllegalArgumentException badCursor(String cursor, int slotAmount, long maxOffset) {
        return new IllegalArgumentException("RMQ-0911 'cursor' must be <slot>:<offset> with a slot from 0 to "
                + (slotAmount - 1) + " and an offset from 0 to " + maxOffset + " (as 'next' of the previous page gives it),"
                + " was '" + Shown.text(cursor) + "'");
    }

    /** RMQ-0912: a text member that must not be empty is. */
    public IllegalArgumentException empty(String member) {
        return new IllegalArgumentException("RMQ-0912 '" + member + "' must not be empty");
    }

    /**
     * RMQ-0913: Redis answered a command with an error (a key of the wrong type, a script error, no permission);
     * the error's text is in the server log (RMQ-0954), never in the answer.
     */
    public String redisErrorReply(String uri) {
        return "RMQ-0913 Redis at " + uri + " answered with an error (the server log has it)";
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

    /** RMQ-0917: the request body is larger than the endpoints read. */
    public IllegalArgumentException bodyTooLarge(long maxBytes) {
        return new IllegalArgumentException("RMQ-0917 The request body must be at most " + maxBytes + " bytes;"
                + " select a large set of dead messages by criteria (all, olderThan, diedBefore, contains), not by listing them");
    }

    /** RMQ-0918: an array of the request body has more items than one request may give. */
    public IllegalArgumentException tooManyItems(String member, int max, int given) {
        return new IllegalArgumentException("RMQ-0918 '" + member + "' may list at most " + max + " items, was " + given
                + "; select a large set of dead messages by criteria (all, olderThan, diedBefore, contains)");
    }

    /** RMQ-0919: a member appears twice in one JSON object of the request body. */
    public IllegalArgumentException duplicateMember(String member) {
        return new IllegalArgumentException("RMQ-0919 The request body gives '" + Shown.text(member) + "' twice");
    }

    /** RMQ-0920: the request body nests arrays and objects deeper than any request needs. */
    public IllegalArgumentException tooDeep(int maxDepth) {
        return new IllegalArgumentException("RMQ-0920 The request body nests arrays and objects deeper than " + maxDepth);
    }

    /** RMQ-0926: the request body holds a number longer than any range an operation accepts. */
    public IllegalArgumentException numberTooLong(int maxChars) {
        return new IllegalArgumentException("RMQ-0926 The request body holds a number of more than " + maxChars + " characters");
    }

    /** RMQ-0927: no requeue or purge is under way with this id (it ended, or never was). */
    public String noSuchOperation(String id) {
        return "RMQ-0927 No requeue or purge is under way with id '" + Shown.text(id) + "'; GET operations lists those that are";
    }

    /** RMQ-0928: the runtime could not read the request (a malformed header) before an endpoint ran. */
    public String unreadableRequest() {
        return "RMQ-0928 The request cannot be read: check its headers (Accept, Content-Type)";
    }

    /** RMQ-0921: the request body goes on after its JSON object. */
    public IllegalArgumentException trailingContent() {
        return new IllegalArgumentException("RMQ-0921 The request body must hold one JSON object and nothing after it");
    }

    /** RMQ-0922: a text of the request body holds half of a UTF-16 surrogate pair, which no UTF-8 text can carry. */
    public IllegalArgumentException unpairedSurrogate() {
        return new IllegalArgumentException("RMQ-0922 The request body holds an unpaired UTF-16 surrogate (such as \\ud800)"
                + " in a text; give binary contents in Base64");
    }

    /** RMQ-0923: the request body is not UTF-8. */
    public IllegalArgumentException notUtf8() {
        return new IllegalArgumentException("RMQ-0923 The request body must be UTF-8 text");
    }

    /** RMQ-0924: no endpoint has this path, or none answers this method there. */
    public String noSuchEndpoint(int status, String reason) {
        return "RMQ-0924 No RMQ admin endpoint answers this request (" + status + " " + reason + ")";
    }

    /** RMQ-0925: a request to the admin endpoints without a logged-in user. */
    public String loginRequired() {
        return "RMQ-0925 Log in as a user of the role rmq-admin to use the RMQ admin endpoints";
    }

    /** RMQ-0930: a request that changes something came without the header that shows it is not cross-site. */
    public String crossSiteHeaderMissing(String method, String header) {
        return "RMQ-0930 A " + method + " to the RMQ admin endpoints must carry the header " + header
                + " (any value, e.g. '" + header + ": rmq'): without it the request could come from a page of another site";
    }

    // ---- recurring schedules (RmqSchedulesResource): RMQ-094x

    /** RMQ-0940: a schedule name in the path that no schedule can have. */
    public IllegalArgumentException badScheduleName(String name) {
        return new IllegalArgumentException("RMQ-0940 '" + Shown.text(name) + "' is not a schedule name: 1 to 200 letters,"
                + " digits, '-', '_', '.' or ':'");
    }
}
