package io.rmq.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;

/**
 * One run of the tool in this JVM, as {@code main} runs it ({@link RmqCli#commandLine()}), with its
 * standard output and error captured.
 *
 * @param exitCode the exit status
 * @param out      what it printed on standard output
 * @param err      what it printed on standard error
 */
record CliRun(int exitCode, String out, String err) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs {@code rmq <args>}. */
    static CliRun rmq(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = RmqCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** Standard output read as one JSON document. */
    JsonNode json() {
        try {
            return JSON.readTree(out);
        } catch (Exception e) {
            throw new AssertionError("standard output is not one JSON document: " + out, e);
        }
    }

    /** For assertion messages. */
    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
