package io.rmq.cli;

import java.io.PrintWriter;

import io.lettuce.core.RedisException;
import io.rmq.cli.i18n.CliMessages;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns what a command throws into one line on standard error, {@code rmq: <message>}, and exit
 * status {@link ExitCodes#FAILED}. The admin API's and the tool's errors carry their id
 * ({@code RMQ-03xx}, {@code RMQ-08xx}) and say what to do; their text is shown as it is. An error
 * reply of Redis is shown with the (masked) URI; anything else is unexpected and shown with its type.
 * Usage errors never get here: picocli reports them with the usage, status {@link ExitCodes#USAGE}.
 */
final class FailureReporter implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception failure, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println(commandLine.getColorScheme().errorText("rmq: " + message(failure, commandLine)));
        err.flush();
        return ExitCodes.FAILED;
    }

    private static String message(Exception failure, CommandLine commandLine) {
        String text = failure.getMessage();
        if (text != null && text.startsWith("RMQ-")) {
            return text;
        }
        if (failure instanceof RedisException) {
            GlobalOptions cli = (GlobalOptions) commandLine.getCommandSpec().root().userObject();
            return CliMessages.ex.redisFailed(cli.displayUri(), String.valueOf(text));
        }
        return CliMessages.ex.unexpectedFailure(failure);
    }
}
