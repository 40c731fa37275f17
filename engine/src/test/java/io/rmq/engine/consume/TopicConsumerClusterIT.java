package io.rmq.engine.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rmq.engine.EngineFixture;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisTestServer;

/**
 * {@link TopicConsumerIT} on a local Redis Cluster of three masters and three replicas, reached through one
 * node's URI: the three topic types' send and merge rules, pop, commit, rollback, dead letters, the sweeper and
 * shutdown, with every script run with a {@code #!lua} shebang so that Redis 7 refuses any cross-slot access.
 */
@ExtendWith(RedisClusterExtension.class)
class TopicConsumerClusterIT extends TopicConsumerIT {

    @Override
    EngineFixture fixture(RedisTestServer unused) {
        return EngineFixture.cluster(RedisClusterTestServer.shared().uri());
    }

    @Test
    void aTopicsSlotsAreSpreadOverTheMasters(RedisClusterTestServer cluster) {
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("spread", 16, TopicType.PRIORITY));
        TopicProducer producer = client.producer(keys);
        for (int i = 0; i < 64; i++) {
            producer.sendWithPriority(EngineFixture.bytes("m" + i), i, "basis-" + i).toCompletableFuture().join();
        }

        Map<String, Long> perMaster = cluster.keysPerMaster();
        assertThat(perMaster).hasSize(3);
        assertThat(perMaster.values()).as("keys per master %s", perMaster).allMatch(n -> n > 0);
        assertThat(fx.inQueues(keys)).isEqualTo(64);
    }

    @Test
    void everySlotsShardedWakeChannelIsSubscribed(RedisClusterTestServer cluster) {
        // several channels of one node in one SSUBSCRIBE are refused (CROSSSLOT): each must be subscribed on its own
        TopicKeys keys = EngineFixture.register(client, new TopicDefinition("subscribed", 16, TopicType.FIXED_TIME));
        fx.consume(client, keys, ConsumerOptions.builder().build());

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
            for (int slot = 0; slot < 16; slot++) {
                String channel = keys.shardedWakeChannel(slot);
                if (cluster.masterOf(channel).cli("PUBSUB", "SHARDNUMSUB", channel).endsWith("\n0")) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    void aSeedListWorksLikeOneNode(RedisClusterTestServer cluster) throws Exception {
        try (EngineFixture seeds = EngineFixture.cluster(cluster.uri())) {
            RmqEngine engine = new RmqEngine(RedisAccess.of(cluster.seedUri())).start();
            try {
                engine.ready().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
                TopicKeys keys = EngineFixture.register(engine, new TopicDefinition("seeded", 8, TopicType.FIXED_TIME));
                for (int i = 0; i < 16; i++) {
                    engine.producer(keys).sendAt(EngineFixture.bytes("s" + i), java.time.Instant.now(), "b" + i)
                            .toCompletableFuture().join();
                }
                assertThat(seeds.inQueues(keys)).isEqualTo(16);
            } finally {
                engine.close();
            }
        }
    }
}
