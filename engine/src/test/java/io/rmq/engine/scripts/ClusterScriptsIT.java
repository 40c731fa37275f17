package io.rmq.engine.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.RedisScript;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisProcess;

/**
 * The scripts on a Redis Cluster: Redis 7 accepts each one with a {@code #!lua} shebang and then refuses any
 * access outside the hash slot of the declared keys (shown with a probe that breaks the rule, so that the
 * engine's ITs on the cluster, which run every script that way, would fail on a cross-slot access); a script
 * that some node has never seen is run through the {@code EVAL} fallback on the node of its key.
 */
@ExtendWith(RedisClusterExtension.class)
class ClusterScriptsIT {

    private RedisClusterClient client;
    private StatefulRedisClusterConnection<byte[], byte[]> connection;
    private ScriptRunner scripts;

    @BeforeEach
    void setUp(RedisClusterTestServer cluster) {
        client = RedisClusterClient.create(RedisURI.create(cluster.uri()));
        connection = client.connect(ByteArrayCodec.INSTANCE);
        scripts = new ScriptRunner(connection.async(), true, true);
    }

    @AfterEach
    void tearDown() {
        connection.close();
        client.shutdown();
    }

    @ParameterizedTest
    @EnumSource(RedisScript.class)
    void everyScriptIsAcceptedWithAShebang(RedisScript script, RedisClusterTestServer cluster) {
        String sha = cluster.masters().get(0).cli("SCRIPT", "LOAD", new String(script.source(true), StandardCharsets.UTF_8));

        assertThat(sha).isEqualTo(script.sha(true));
    }

    @Test
    void aShebangScriptThatTouchesAKeyOfAnotherSlotIsRefusedEvenOnTheSameNode(RedisClusterTestServer cluster) {
        // a key of another hash slot served by the same master: without the shebang Redis would allow it
        String declared = "{a}declared";
        RedisProcess node = cluster.masterOf(declared);
        String other = null;
        for (int i = 0; other == null; i++) {
            String candidate = "{n" + i + "}undeclared";
            if (!cluster.slotOf(candidate).equals(cluster.slotOf(declared)) && cluster.masterOf(candidate) == node) {
                other = candidate;
            }
        }
        String probe = "#!lua\nreturn redis.call('SET', ARGV[1], '1')";
        byte[][] keys = { bytes(declared) };
        String undeclared = other;

        assertThatThrownBy(() -> connection.async().eval(bytes(probe), ScriptOutputType.STATUS, keys, bytes(undeclared))
                .get(10, TimeUnit.SECONDS)).hasMessageContaining("do not hash to the same slot");
        assertThat(node.cli("EXISTS", undeclared)).isEqualTo("0");
        String plain = connection.sync().eval(bytes(probe.substring("#!lua\n".length())), ScriptOutputType.STATUS, keys,
                bytes(undeclared));
        assertThat(plain).as("the same script without shebang is let through").isEqualTo("OK");
    }

    @Test
    void aScriptUnknownToTheNodeOfItsKeyRunsThroughTheEvalFallback(RedisClusterTestServer cluster) {
        TopicDefinition topic = new TopicDefinition("fallback", 16, TopicType.PRIORITY);
        TopicKeys keys = new TopicKeys(topic);
        // load the script on one master only: the others answer NOSCRIPT to EVALSHA
        RedisProcess loaded = cluster.masters().get(0);
        loaded.cli("SCRIPT", "LOAD", new String(RedisScript.REGISTER_TOPIC.source(true), StandardCharsets.UTF_8));
        TopicScripts topicScripts = new TopicScripts(() -> scripts, keys);

        for (int slot = 0; slot < topic.slotAmount(); slot++) {
            topicScripts.send(slot, java.util.List.of(new TopicScripts.Send("1", bytes("m" + slot))))
                    .toCompletableFuture().join();
        }

        assertThat(topicScripts.registerTopic().toCompletableFuture().join()).isEqualTo("PRIORITY:16");
        for (RedisProcess master : cluster.masters()) {
            assertThat(master.cli("SCRIPT", "EXISTS", RedisScript.SEND.sha(true)))
                    .as("the send script cached on %s after its first call there", master).isEqualTo("1");
        }
    }

    @Test
    void aFailedScriptCallIsReportedAsItself() {
        TopicKeys keys = new TopicKeys(new TopicDefinition("typo", 1, TopicType.PRIORITY));
        byte[][] k = { bytes(keys.slot(0).store()), bytes(keys.slot(0).prepare()) };

        assertThatThrownBy(() -> scripts.run(RedisScript.SEND, k, bytes("NO_SUCH_TYPE"), bytes(keys.shardedWakeChannel(0)),
                bytes("0"), bytes("1"), bytes("m")).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("RMQ_BAD_TYPE");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
