package io.rmq.engine.scripts;

import static io.rmq.testing.Bytes.utf8;
import static io.rmq.testing.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.rmq.engine.redis.ScriptRunner;
import io.rmq.engine.topic.FairShare;
import io.rmq.engine.topic.SlotKeys;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;

/**
 * Fair share on a Redis Cluster: tenant queues, the tenants set, the fair hash and the in-flight tenant hash share
 * their slot's hash tag, so sends, pops and settlements of every slot run on one hash slot (the tenant queues that
 * pop.lua and the settlement scripts name from the store queue included).
 */
@ExtendWith(RedisClusterExtension.class)
class FairShareClusterIT {

    private static final TopicKeys TOPIC = new TopicKeys(new TopicDefinition("tenants", 8, TopicType.PRIORITY));
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
        scripts.settleByTenant(true);
    }

    @AfterEach
    void tearDown() {
        connection.close();
        client.shutdown();
    }

    @Test
    void everySlotServesItsTenantsAndSettlesThemOnItsOwnHashSlot() {
        FairShare weights = FairShare.of(true, "a:3,b:1");
        for (int slot = 0; slot < 8; slot++) {
            SlotKeys keys = TOPIC.slot(slot);
            await(scripts.send(slot, List.of(send("a1", "a"), send("a2", "a"), send("a3", "a"), send("a4", "a"),
                    send("b1", "b"), new TopicScripts.Send("1", utf8("b0"), null, null, 0, "b", null), send("plain", null))));

            List<TopicScripts.PoppedMember> popped = await(scripts.pop(slot, 4, 30_000, 0, null, false, false, weights))
                    .members();
            List<String> names = popped.stream().map(m -> new String(m.content(), StandardCharsets.UTF_8)).toList();
            assertThat(names).hasSize(4);
            assertThat(names.stream().filter(n -> n.startsWith("a")).count()).as("slot %d: %s", slot, names)
                    .isGreaterThanOrEqualTo(2);

            await(scripts.rollback(slot, RETRY, "failed", List.of(popped.get(0).content())));
            await(scripts.release(slot, List.of(popped.get(1))));
            await(scripts.commit(slot, List.of(popped.get(2).content(), popped.get(3).content())));
            assertThat(connection.sync().zcard(utf8(keys.prepare()))).isZero();
            assertThat(connection.sync().hlen(utf8(keys.inFlightTenants()))).isZero();
            long left = connection.sync().zcard(utf8(keys.store())) + connection.sync().zcard(utf8(keys.tenantQueue("a")))
                    + connection.sync().zcard(utf8(keys.tenantQueue("b")));
            assertThat(left).as("7 sent, 2 committed").isEqualTo(5);
            assertThat(await(scripts.find(slot, utf8("b0"), List.of(), "b")).pendingScore()).isNotNull();
            assertThat(await(scripts.cancel(slot, utf8("b0"), List.of(), "b")).cancelled()).isTrue();
        }
    }

    private static TopicScripts.Send send(String member, String tenant) {
        return new TopicScripts.Send("5", utf8(member), null, null, 0, tenant, null);
    }
}
