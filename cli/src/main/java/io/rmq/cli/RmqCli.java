package io.rmq.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

import io.rmq.cli.i18n.CliMessages;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;

/**
 * {@code rmq}: the operators' command-line tool for the topics of one Redis. The root command holds
 * the global options (accepted before or after the subcommand's name); each subcommand opens one
 * admin connection ({@link RmqAdmin}) for its operation and closes it.
 *
 * <p>Build the command line with {@link #commandLine()}: it is what {@link #main} runs, with the
 * handlers that turn failures and usage errors into a message on standard error and an exit status
 * ({@link ExitCodes}). One instance per run; not thread-safe.
 */
@Command(name = "rmq",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = RmqCli.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        header = "Operates the topics of a redis-rmq Redis: state, dead messages, pending messages, pause.",
        description = "Works against any Redis the topics live in, while producers and consumers run: every change is "
            + "one atomic script call per slot. Options may come before or after the command's name.",
        subcommands = {
            TopicsCommand.class,
            StatsCommand.class,
            DeadCommand.class,
            PendingCommand.class,
            PauseCommand.class,
            ResumeCommand.class,
            GrowCommand.class,
            OperationsCommand.class,
            SchedulesCommand.class,
            FlowCommand.class,
            HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:done",
            "1:failed: Redis unreachable or answering with an error, unknown topic, ... (stderr says why)",
            "2:wrong command line (stderr shows the usage)",
            "3:pending remove / due-now: the message is not pending"})
public final class RmqCli implements GlobalOptions {

    /** The environment variable of the Redis ACL user: {@value}. */
    public static final String USER_ENV = "RMQ_REDIS_USERNAME";
    /** The environment variable of the Redis password: {@value}. */
    public static final String PASSWORD_ENV = "RMQ_REDIS_PASSWORD";
    /** The environment variable of the trusted CA file: {@value}. */
    public static final String CA_FILE_ENV = "RMQ_REDIS_TLS_CA_FILE";

    /** The Redis URI when neither {@code --uri} nor {@code RMQ_REDIS_URI} gives one. */
    public static final String DEFAULT_URI = RedisAccess.DEFAULT_URI;

    /** Logs of the libraries below the admin API, which would only repeat what the tool reports. */
    private static final Logger[] LIBRARY_LOGGERS = {Logger.getLogger("io.netty"), Logger.getLogger("io.lettuce"),
        Logger.getLogger("reactor")};

    @Option(names = "--uri", paramLabel = "<redis-uri>", scope = ScopeType.INHERIT,
            defaultValue = "${env:RMQ_REDIS_URI:-" + DEFAULT_URI + "}",
            description = {"Redis to work on: redis://[user:password@]host:port[/db], rediss://..., redis-sentinel://...",
                "Default: the environment variable RMQ_REDIS_URI, else " + DEFAULT_URI + "."})
    private String uri;

    @Option(names = "--user", paramLabel = "<name>", scope = ScopeType.INHERIT,
            defaultValue = "${env:" + USER_ENV + "}",
            description = {"Redis ACL user to log in as, with a password from --password or " + PASSWORD_ENV + ".",
                "Default: the environment variable " + USER_ENV + ", else the user of the URI, if any."})
    private String user;

    @Option(names = "--password", scope = ScopeType.INHERIT, interactive = true, arity = "0",
            description = {"Prompt for the Redis password (never given on the command line).",
                "Default: the environment variable " + PASSWORD_ENV + ", else the password of the URI, if any."})
    private char[] password;

    @Option(names = "--tls-ca-file", paramLabel = "<pem-file>", scope = ScopeType.INHERIT,
            defaultValue = "${env:" + CA_FILE_ENV + "}",
            description = {"PEM file of the certificate authorities trusted for a rediss:// Redis.",
                "Default: the environment variable " + CA_FILE_ENV + ", else the JVM's trust store."})
    private Path tlsCaFile;

    @Option(names = "--key-prefix", paramLabel = "<prefix>", scope = ScopeType.INHERIT, defaultValue = "",
            description = "The key prefix of the topics (channel attribute key-prefix). Default: none.")
    private String keyPrefix;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print one JSON document instead of text (shapes in docs/cli.md). Errors stay text on stderr.")
    private boolean json;

    /** Runs the tool and exits with its status. */
    public static void main(String[] args) {
        for (Logger logger : LIBRARY_LOGGERS) {
            logger.setLevel(Level.SEVERE);
        }
        System.exit(commandLine().execute(args));
    }

    /** The tool's command line, ready to {@code execute(args)}; set its out and err writers to capture them. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new RmqCli());
        commandLine.setExecutionExceptionHandler(new FailureReporter());
        commandLine.setParameterExceptionHandler(new UsageErrorReporter());
        return commandLine;
    }

    @Override
    public RmqAdmin connect() {
        if (tlsCaFile != null && !Files.isReadable(tlsCaFile)) {
            throw CliMessages.ex.unreadableCaFile(tlsCaFile.toString());
        }
        try {
            return RmqAdmin.connect(RedisAccess.builder(uri).username(user).password(password())
                    .trustedCertificates(tlsCaFile).build());
        } catch (IllegalArgumentException e) {
            String masked = displayUri();
            // Lettuce's reason may quote the URI, password included
            String reason = String.valueOf(e.getMessage());
            reason = uri.isEmpty() ? reason : reason.replace(uri, masked);
            throw CliMessages.ex.badRedisUri(masked, reason);
        }
    }

    /** The password: prompted for ({@code --password}), else from {@value #PASSWORD_ENV}; {@code null} for none. */
    private String password() {
        if (password != null) {
            return new String(password);
        }
        String fromEnvironment = System.getenv(PASSWORD_ENV);
        return fromEnvironment == null || fromEnvironment.isEmpty() ? null : fromEnvironment;
    }

    @Override
    public String displayUri() {
        return UriCredentials.mask(uri);
    }

    @Override
    public String keyPrefix() {
        return keyPrefix;
    }

    @Override
    public boolean json() {
        return json;
    }

    /** The version of the module, as Maven wrote it into {@code version.properties}. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = RmqCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {"rmq (redis-rmq command-line tool) " + properties.getProperty("version", "unknown")};
        }
    }
}
