package io.rmq.cli;

import java.io.PrintWriter;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * What a command found or did. Implementations are records: with {@code --json} the record itself
 * is the JSON document (its components are the documented fields), otherwise {@link #printText}
 * writes it for people.
 */
public interface Report {

    /** Writes the report as text. */
    void printText(PrintWriter out);

    /** The exit status that goes with it: {@link ExitCodes#OK} unless overridden. */
    @JsonIgnore
    default int exitCode() {
        return ExitCodes.OK;
    }
}
