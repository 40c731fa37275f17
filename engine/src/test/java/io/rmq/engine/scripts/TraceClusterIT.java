package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * Trace contexts on a Redis Cluster: the trace hash shares its slot's hash tag, so every script that records, takes
 * out, gives back or removes an entry runs on one hash slot (a script touching another slot is refused there).
 */
@ExtendWith(RedisClusterExtension.class)
class TraceClusterIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("traced", 8, TopicType.RANGE_MERGE));
    private static final TopicScripts.RetryRule RETRY = new TopicScripts.RetryRule(3, 1, 1);

    private RedisClusterClient client;
    private StatefulRedisClusterConnection<byte[], byte[]> connection;
    private TopicScripts scripts;

    @BeforeEach
    void setUp(RedisClusterTestServer cluster) {
        client = RedisClusterClient.create(RedisURI.create(cluster.uri()));
        connection = client.connect(ByteArrayCodec.INSTANCE);
        ScriptRunner runner = new ScriptRunner(connection.async(), true, true);
        scripts = new TopicScripts(() -> runner, TOPIC);
    }

    @AfterEach
    void tearDown() {
        connection.close();
        client.shutdown();
    }

    @Test
    void everySlotRecordsTakesOutGivesBackAndRemovesItsEntriesOnItsOwnHashSlot() {
        for (int slot = 0; slot < 8; slot++) {
            List<TopicScripts.Send> sends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sends.add(new TopicScripts.Send("1", utf8("m" + slot), null, TraceScriptsIT.context(i), 32));
            }
            await(scripts.send(slot, sends));
            byte[] trace = utf8(TOPIC.slot(slot).trace());
            assertThat(connection.sync().hlen(trace)).isEqualTo(1);

            TopicScripts.PoppedMember popped = popOne(slot);
            assertThat(TraceEntry.parse(popped.trace()).sends()).isEqualTo(3);
            assertThat(connection.sync().exists(trace)).isZero();

            String retry = TraceEntry.parse(popped.trace()).withAttempt(TraceScriptsIT.context(9)).wire();
            await(scripts.rollbackTraced(slot, RETRY, "failed", List.of(utf8("m" + slot)), List.of(retry), 32));
            assertThat(connection.sync().hget(trace, utf8("m" + slot))).isEqualTo(utf8(retry));

            TopicScripts.PoppedMember again = popOne(slot);
            assertThat(TraceEntry.parse(again.trace()).attemptContext()).isEqualTo(TraceScriptsIT.context(9));
            await(scripts.commit(slot, List.of(again.content())));
            assertThat(connection.sync().exists(trace)).isZero();
        }
    }

    /** Pops the slot's one member once it is due (a retry is due after its backoff). */
    private TopicScripts.PoppedMember popOne(int slot) {
        AtomicReference<TopicScripts.PoppedMember> popped = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            List<TopicScripts.PoppedMember> members = await(scripts.pop(slot, 10, 30_000, 0, "", false, true)).members();
            members.stream().findFirst().ifPresent(popped::set);
            return popped.get() != null;
        });
        return popped.get();
    }
}
