package io.rmq.engine.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.consume.TopicConsumer;
import io.rmq.engine.produce.TopicProducer;
import io.rmq.engine.redis.RedisAcl;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;
import io.rmq.testing.redis.RedisClusterExtension;
import io.rmq.testing.redis.RedisClusterTestServer;
import io.rmq.testing.redis.RedisProcess;

/**
 * {@link RedisAclIT}'s flows and refusals on the local Redis Cluster, with the user of
 * {@link RedisAcl#clusterRules} created on every node (masters and replicas: {@code ACL SETUSER} is per node).
 */
@ExtendWith(RedisClusterExtension.class)
class RedisAclClusterIT extends RedisAclIT {

    private final RedisClusterTestServer cluster = RedisClusterTestServer.shared();

    @Override
    List<String> aclRules() {
        return RedisAcl.clusterRules(PREFIX, false);
    }

    @Override
    void createUser(String... rules) {
        for (RedisProcess node : cluster.running()) {
            node.cli("ACL", "LOG", "RESET");
            node.cli(Stream.concat(Stream.of("ACL", "SETUSER", USER), Stream.of(rules)).toArray(String[]::new));
        }
    }

    /**
     * Every node's {@code ACL LOG} holds only what the tests are refused on purpose: {@code CONFIG GET} (the
     * optional eviction check) and the refusals of {@code theUserIsRefusedKeysChannelsAndTopicsOutsideItsPatterns};
     * a command, key or channel the engine or Lettuce needs and the rules miss would show here.
     */
    /**
     * Not on the cluster: its check that no node refused anything (below) is what the other tests rely on, and the
     * fallback is the same script on each master.
     */
    @Override
    void aUserCreatedWithTheListOfAnEarlierVersionStillConsumes() {
    }

    @Override
    void dropServer() {
        for (RedisProcess node : cluster.running()) {
            List<String> log = node.cli("ACL", "LOG", "128").lines().toList();
            for (int i = 0; i + 1 < log.size(); i++) {
                if (log.get(i).equals("object")) {
                    assertThat(log.get(i + 1)).as("refused on %s", node)
                            .matches("config\\|get|get|keys|flushall|.*other.*");
                }
            }
            node.cli("ACL", "DELUSER", USER);
        }
    }

    @Override
    String uri() {
        return cluster.uri();
    }

    @Override
    String command(String key, String... args) {
        return cluster.masterOf(key).cli(args);
    }

    @Override
    boolean replicated() {
        return true;
    }

    @Override
    RedisClusterCommands<String, String> connectAsUser() {
        RedisURI uri = RedisURI.create(cluster.uri());
        uri.setUsername(USER);
        uri.setPassword(PASSWORD.toCharArray());
        RedisClusterClient client = RedisClusterClient.create(uri);
        closeAfter(client::shutdown);
        return client.connect().sync();
    }

    /**
     * The user exists on the replicas too: after the master of the topic's slot is killed, the promoted replica
     * accepts the restricted user's sends, pops and acks.
     */
    @Test
    void aPromotedReplicaServesTheRestrictedUser() throws Exception {
        RmqEngine engine = open(new RmqEngine(access()).start());
        engine.ready().toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicKeys keys = engine.registerTopic(new TopicDefinition("failover", 1, TopicType.PRIORITY, PREFIX))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        TopicProducer producer = engine.producer(keys);
        producer.sendWithPriority(bytes("before"), 1, "before").toCompletableFuture().get(10, TimeUnit.SECONDS);

        cluster.killMasterOf(keys.slot(0).store());
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> producer
                .sendWithPriority(bytes("after"), 1, "after").toCompletableFuture().get(5, TimeUnit.SECONDS) != null);

        BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
        TopicConsumer consumer = engine.consumer(keys, ConsumerOptions.builder().build(), "acl-failover");
        closeAfter(consumer);
        consumer.start(received::add);
        consumer.request(10);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Delivery d = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(d).as("delivery %d after the failover", i).isNotNull();
            texts.add(text(d));
            d.commit().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        assertThat(texts).containsExactlyInAnyOrder("before", "after");
    }

    @Override
    void refusedOnOtherShardedChannels(RedisClusterCommands<String, String> c) {
        assertThatThrownBy(() -> c.spublish("rmq:wake{other:orders_0}", "0:0")).hasMessageStartingWith("NOPERM");
        assertThat(c.spublish("rmq:wake{shop:orders_0}", "0:0")).isZero();
    }
}
