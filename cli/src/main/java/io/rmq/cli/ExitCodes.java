package io.rmq.cli;

/** The exit statuses of {@code rmq}, as {@code --help} lists them. */
public final class ExitCodes {

    /** The command did what it was asked. */
    public static final int OK = 0;
    /** The command failed: Redis unreachable or answering with an error, an unknown topic, ... (stderr says why). */
    public static final int FAILED = 1;
    /** The command line is wrong (picocli's usage status): stderr says what, with the usage. */
    public static final int USAGE = 2;
    /** {@code pending remove} or {@code pending due-now} found no pending message to act on. */
    public static final int NOT_PENDING = 3;

    private ExitCodes() {
    }
}
