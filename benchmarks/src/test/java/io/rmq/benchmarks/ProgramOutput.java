package io.rmq.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What a benchmark program prints to standard output while it runs, passed on to the test's output too. */
final class ProgramOutput {

    /** A program's {@code main}. */
    interface Program {
        void run() throws Exception;
    }

    private ProgramOutput() {
    }

    static String of(Program program) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            program.run();
        } finally {
            System.setOut(out);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        out.print(output);
        return output;
    }
}
