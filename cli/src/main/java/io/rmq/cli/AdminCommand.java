package io.rmq.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.rmq.cli.format.Json;
import io.rmq.engine.admin.RmqAdmin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to Redis: it reads the global options of {@code RmqCli}, opens an
 * {@link RmqAdmin} for the one operation, prints the {@link Report} as text or JSON on the command
 * line's standard output and returns its exit status. What goes wrong is thrown, for
 * {@link FailureReporter} to show on standard error.
 */
abstract class AdminCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Does the work with a connected admin. */
    abstract Report run(RmqAdmin admin, String keyPrefix);

    /** Checks option values that picocli cannot (throws {@code ParameterException}); before any connection. */
    void validate() {
    }

    @Override
    public final Integer call() {
        validate();
        GlobalOptions cli = (GlobalOptions) spec.root().userObject();
        Report report;
        try (RmqAdmin admin = cli.connect()) {
            report = run(admin, cli.keyPrefix());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (cli.json()) {
            out.println(Json.write(report));
        } else {
            report.printText(out);
        }
        out.flush();
        return report.exitCode();
    }
}
