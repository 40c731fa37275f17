package io.rmq.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a wrong command line briefly, on standard error: what is wrong, the command's synopsis
 * and where to read more (the whole help would bury the one line that matters). Exit status
 * {@link ExitCodes#USAGE}.
 */
final class UsageErrorReporter implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException failure, String[] args) {
        CommandLine commandLine = failure.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String message = String.valueOf(failure.getMessage()).replaceFirst("^Error: ", "");
        err.println(commandLine.getColorScheme().errorText("rmq: " + message));
        UnmatchedArgumentException.printSuggestions(failure, err);
        Help help = commandLine.getHelp();
        err.print(help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()));
        err.println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }
}
