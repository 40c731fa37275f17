package io.rmq.cli.i18n;

/**
 * The command-line tool's own texts, each with a stable id ({@code RMQ-08xx}): errors the tool
 * raises itself, before or around the admin API (whose errors, {@code RMQ-03xx}, are shown as they
 * are). Use the shared instance {@link #ex}; thread-safe.
 */
public final class CliMessages {

    /** The shared instance. */
    public static final CliMessages ex = new CliMessages();

    private CliMessages() {
    }

    /** RMQ-0801: the Redis URI cannot be parsed; both texts must already be free of credentials. */
    public IllegalArgumentException badRedisUri(String maskedUri, String reason) {
        return new IllegalArgumentException("RMQ-0801 Invalid Redis URI '" + maskedUri + "': " + reason
                + " (expected e.g. redis://[user:password@]host:6379[/database], rediss://..., redis-sentinel://...)");
    }

    /** RMQ-0802: an {@code --older-than} value is neither a duration nor a time. */
    public String badTimeBound(String text) {
        return "RMQ-0802 '" + text + "' is neither a duration (90s, 15m, 2h, 7d, 500ms, PT1H30M, P7D) nor an ISO-8601"
                + " time (2025-01-31T12:00:00Z, 2025-01-31T13:00:00+01:00)";
    }

    /** RMQ-0803: an option's number is out of range. */
    public String notPositive(String option, long value) {
        return "RMQ-0803 " + option + " must be at least 1, was " + value;
    }

    /** RMQ-0804: a {@code --member-base64} value is not Base64. */
    public String badBase64(String text) {
        return "RMQ-0804 '" + text + "' is not Base64 (as 'contentBase64' of 'dead list --json' gives it)";
    }

    /** RMQ-0805: a command failed in a way no catalogue describes (a bug, or an unexpected reply). */
    public String unexpectedFailure(Throwable failure) {
        return "RMQ-0805 Unexpected failure: " + failure;
    }

    /** RMQ-0806: a {@code --cursor} value is malformed. */
    public String badCursor(String reason) {
        return "RMQ-0806 " + reason + " (use the cursor that the previous page printed)";
    }

    /** RMQ-0807: Redis answered a command with an error or the connection failed during it. */
    public String redisFailed(String maskedUri, String reason) {
        return "RMQ-0807 Redis at " + maskedUri + " failed the command: " + reason;
    }

    /** RMQ-0808: the {@code --tls-ca-file} cannot be read. */
    public IllegalArgumentException unreadableCaFile(String file) {
        return new IllegalArgumentException("RMQ-0808 The --tls-ca-file '" + file + "' does not exist or cannot be read"
                + " (a PEM file of the certificate authorities that sign the server's certificate is required)");
    }

    /** RMQ-0809: a report could not be written as JSON (reports are plain records, so this is a bug). */
    public IllegalStateException notJson(String type, Throwable cause) {
        return new IllegalStateException("RMQ-0809 Cannot write " + type + " as JSON", cause);
    }

    /** RMQ-0810: a content preview was asked for with no room for a character. */
    public IllegalArgumentException previewTooShort(int maxChars) {
        return new IllegalArgumentException("RMQ-0810 A preview needs at least 1 character, was " + maxChars);
    }

    /** RMQ-0811: a table row does not have one value per column. */
    public IllegalArgumentException rowWidth(int columns, int values) {
        return new IllegalArgumentException("RMQ-0811 A row needs " + columns + " values, had " + values);
    }

    /** RMQ-0812: a duration to show is negative. */
    public IllegalArgumentException negativeDuration(long millis) {
        return new IllegalArgumentException("RMQ-0812 A duration is not negative, was " + millis + " ms");
    }

    /** RMQ-0820: {@code operations cancel} named no operation under way. */
    public IllegalArgumentException noSuchOperation(String id) {
        return new IllegalArgumentException("RMQ-0820 No requeue or purge is under way with id '" + id
                + "' (it ended, or never was); 'rmq operations list' lists those that are");
    }

    /** RMQ-0830: {@code flow set} named no setting. */
    public String noFlowSetting() {
        return "RMQ-0830 Name at least one setting to change: --rate, --burst, --key-concurrency, --key-rate,"
                + " --key-burst, --fair, --default-weight, --aging, --adaptive, --adaptive-threshold, --adaptive-floor";
    }

    /** RMQ-0831: an on/off option with another value. */
    public String notOnOff(String option, String value) {
        return "RMQ-0831 " + option + " must be on or off, was '" + value + "'";
    }

    /** RMQ-0832: {@code flow remove} named a setting that does not exist. */
    public String unknownFlowSetting(String setting, String known) {
        return "RMQ-0832 '" + setting + "' is not a flow setting to remove: use one of " + known;
    }

    /** RMQ-0833: a number option that is not a number. */
    public String notANumber(String option, String value) {
        return "RMQ-0833 " + option + " must be a number above 0, was '" + value + "'";
    }
}
