package io.rmq.cli;

import static io.rmq.cli.CliRun.rmq;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import io.lettuce.core.AclCategory;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.protocol.CommandType;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisConnections;
import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/** What goes wrong is said on stderr, with a non-zero exit status and no password. */
@RedisTest
class ErrorsIT {

    @Test
    void anUnreachablePortNamesTheUriWithoutItsPassword() throws IOException {
        String uri = "redis://operator:s3cret-pw@127.0.0.1:" + freePort();

        for (String[] args : new String[][] {{"topics"}, {"stats", "orders"}, {"dead", "list", "orders"}, {"pause", "orders"}}) {
            CliRun run = rmq(withUri(uri, args));
            assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.FAILED);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).startsWith("rmq: RMQ-0313 Cannot reach Redis at redis://***@127.0.0.1:")
                    .doesNotContain("s3cret-pw");
        }
    }

    @Test
    void redisGoingDownIsReportedLikeAnUnreachableRedis(RedisTestServer server) {
        server.stop(); // the extension starts it again before the next test
        CliRun run = rmq("--uri", server.uri(), "--json", "topics");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.out()).as("no JSON document for a failure").isEmpty();
        assertThat(run.err()).startsWith("rmq: RMQ-0313 Cannot reach Redis at " + server.uri());
    }

    @Test
    void aMalformedUriIsReportedWithoutItsPassword() {
        CliRun run = rmq("--uri", "redis://operator:s3cret pw@localhost:6379", "topics");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err()).startsWith("rmq: RMQ-0801 Invalid Redis URI 'redis://***@localhost:6379'")
                .doesNotContain("s3cret");

        CliRun noScheme = rmq("--uri", "localhost:6379", "topics");
        assertThat(noScheme.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(noScheme.err()).startsWith("rmq: RMQ-0801 Invalid Redis URI 'localhost:6379'");
    }

    @Test
    void anErrorReplyOfRedisNamesTheUriWithoutItsPassword(RedisTestServer server, RedisConnections redis) {
        QueueState.register(server.uri(), new TopicDefinition("orders", 2, TopicType.FIXED_TIME));
        // a user that may read but not run scripts, as a read-only operator account might be
        redis.sync().aclSetuser("reader", AclSetuserArgs.Builder.on().addPassword("s3cret-pw").allKeys().allChannels()
                .addCommand(CommandType.HELLO).addCategory(AclCategory.READ).removeCategory(AclCategory.SCRIPTING));
        try {
            String uri = server.uri().replace("redis://", "redis://reader:s3cret-pw@");
            assertThat(rmq("--uri", uri, "topics").exitCode()).as("reading is allowed").isZero();

            CliRun run = rmq("--uri", uri, "stats", "orders");
            assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.FAILED);
            assertThat(run.err()).startsWith("rmq: RMQ-0807 Redis at redis://***@127.0.0.1:" + server.port()
                    + " failed the command: NOPERM").doesNotContain("s3cret-pw");
        } finally {
            redis.sync().aclDeluser("reader");
        }
    }

    @Test
    void anUnknownTopicListsTheRecordedOnes(RedisTestServer server) {
        QueueState.register(server.uri(), new TopicDefinition("orders", 2, TopicType.FIXED_TIME),
                new TopicDefinition("prices", 1, TopicType.PRIORITY));
        for (String[] args : new String[][] {
            {"stats", "ordres"}, {"dead", "list", "ordres"}, {"dead", "purge", "ordres", "--all"},
            {"pending", "remove", "ordres", "x"}, {"pause", "ordres"}, {"resume", "ordres"}}) {
            CliRun run = rmq(withUri(server.uri(), args));
            assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCodes.FAILED);
            assertThat(run.out()).isEmpty();
            assertThat(run.err()).isEqualTo("rmq: RMQ-0312 Topic 'ordres' is not recorded in hash 'rmq:topics' (a topic"
                    + " is recorded when a producer or consumer first uses it); recorded topics: orders, prices"
                    + System.lineSeparator());
        }
        // another key prefix is another keyspace
        CliRun prefixed = rmq("--uri", server.uri(), "--key-prefix", "shop:", "stats", "orders");
        assertThat(prefixed.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(prefixed.err()).contains("not recorded in hash 'shop:rmq:topics'").contains("recorded topics: none");
    }

    private static String[] withUri(String uri, String[] args) {
        String[] all = new String[args.length + 2];
        all[0] = "--uri";
        all[1] = uri;
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }

    /** A loopback port nothing listens on (taken and released). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
