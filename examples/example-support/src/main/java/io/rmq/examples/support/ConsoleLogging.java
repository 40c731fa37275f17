package io.rmq.examples.support;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.text.MessageFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Console logging for the example programs: one line per record on standard output (so log lines
 * and the programs' own output stay in order), warnings and errors from every library, and the
 * INFO messages of the connector and engine ({@code io.rmq}) only. Weld and SmallRye log through
 * JBoss Logging, and Lettuce through SLF4J; both are pointed at {@code java.util.logging} so the
 * same levels apply to them.
 *
 * <p>Call {@link #install()} first thing in {@code main}, before any CDI or Redis class is loaded.
 */
public final class ConsoleLogging {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    // java.util.logging keeps loggers weakly: hold the configured ones so their levels stick.
    private static List<Logger> configured;

    private ConsoleLogging() {
    }

    /** Routes JBoss Logging to java.util.logging and sets the levels described in the class comment. */
    public static synchronized void install() {
        if (configured != null) {
            return;
        }
        // JBoss Logging would pick another backend if it found one; SLF4J goes to java.util.logging
        // through slf4j-jdk14 (see the pom).
        System.setProperty("org.jboss.logging.provider", "jdk");
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        root.addHandler(new StandardOutputHandler());
        root.setLevel(Level.WARNING);
        configured = List.of(root,
                level("io.rmq", Level.INFO),
                level("org.jboss.weld", Level.WARNING),
                level("io.smallrye", Level.WARNING),
                level("io.netty", Level.WARNING),
                level("io.lettuce", Level.WARNING));
    }

    private static Logger level(String name, Level level) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(level);
        return logger;
    }

    /** Writes each record as {@code HH:mm:ss.SSS LEVEL [logger] message}, then its stack trace if any. */
    private static final class StandardOutputHandler extends Handler {

        StandardOutputHandler() {
            setLevel(Level.ALL);
        }

        @Override
        public void publish(LogRecord record) {
            if (!isLoggable(record)) {
                return;
            }
            String logger = record.getLoggerName() == null ? "" : record.getLoggerName();
            StringBuilder line = new StringBuilder()
                    .append(TIME.format(Instant.ofEpochMilli(record.getMillis()))).append(' ')
                    .append(String.format("%-7s", record.getLevel().getName()))
                    .append(" [").append(logger.substring(logger.lastIndexOf('.') + 1)).append("] ")
                    .append(message(record));
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(System.lineSeparator()).append(trace.toString().stripTrailing());
            }
            System.out.println(line);
        }

        private static String message(LogRecord record) {
            String message = record.getMessage();
            Object[] params = record.getParameters();
            if (message == null || params == null || params.length == 0) {
                return message;
            }
            try {
                return MessageFormat.format(message, params);
            } catch (IllegalArgumentException e) {
                return message;
            }
        }

        @Override
        public void flush() {
            System.out.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }
}
