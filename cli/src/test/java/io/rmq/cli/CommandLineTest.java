package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The command line itself, which needs no Redis: help, version and usage errors (exit status 2, nothing connected). */
class CommandLineTest {

    /** Nothing listens there: a command that got as far as connecting would fail with status 1, not 2. */
    private static final String NOWHERE = "redis://127.0.0.1:1";

    @Test
    void helpListsEveryCommandAndTheExitStatuses() {
        CliRun run = rmq("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: rmq ", "--uri=<redis-uri>", "--key-prefix=<prefix>", "--json",
                "RMQ_REDIS_URI", "topics", "stats", "dead", "pending", "pause", "resume", "Exit status:");
        assertThat(rmq("dead", "requeue", "--help").out()).contains("Selection (exactly one):", "--older-than=<age|time>",
                "--rate=<msgs/s>", "Default: 100", "--dry-run");
        assertThat(rmq("help", "pending").out()).contains("Usage: rmq pending", "remove", "due-now");
        assertThat(rmq("pending", "remove", "--help").out()).contains("Usage: rmq pending remove", "--slot-basis=<basis>");
    }

    @Test
    void versionNamesTheTool() {
        CliRun run = rmq("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("rmq (redis-rmq command-line tool) ");
    }

    @Test
    void aWrongCommandLineIsReportedBrieflyWithStatusTwo() {
        String[][] wrong = {
            {"stats"},                                                  // missing topic
            {"statz", "orders"},                                        // unknown command
            {"dead"},                                                   // missing subcommand
            {"dead", "requeue", "orders"},                              // no selection
            {"dead", "requeue", "orders", "--all", "--contains", "x"},  // two selections
            {"dead", "requeue", "orders", "--all", "--rate", "0"},
            {"dead", "purge", "orders", "--older-than", "yesterday"},
            {"dead", "purge", "orders", "--member-base64", "not base64!"},
            {"dead", "list", "orders", "--limit", "0"},
            {"dead", "list", "orders", "--cursor", "3"},
            {"pending", "remove", "orders"},                            // missing member
            {"pending", "due-now", "orders", "%%%", "--base64"},
            {"pause", "orders", "--bogus"},
            {"operations", "cancel"},                                   // missing id
            {"operations", "list", "extra"}};
        for (String[] args : wrong) {
            String[] withUri = new String[args.length + 2];
            withUri[0] = "--uri";
            withUri[1] = NOWHERE;
            System.arraycopy(args, 0, withUri, 2, args.length);
            CliRun run = rmq(withUri);
            assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.USAGE);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).startsWith("rmq: ").contains("Usage: rmq").contains("--help' for more information.");
        }
        assertThat(rmq("--uri", NOWHERE, "dead", "requeue", "orders", "--all", "--contains", "x").err())
                .startsWith("rmq: --all, --contains=<text> are mutually exclusive (specify only one)");
        assertThat(rmq("--uri", NOWHERE, "dead", "requeue", "orders", "--all", "--rate", "0").err())
                .startsWith("rmq: RMQ-0803 --rate must be at least 1, was 0");
        assertThat(rmq("--uri", NOWHERE, "statz").err()).contains("Did you mean: rmq stats");
    }
}
