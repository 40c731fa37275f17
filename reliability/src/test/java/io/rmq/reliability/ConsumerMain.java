package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rmq.engine.RmqEngine;
import io.rmq.engine.consume.ConsumerOptions;
import io.rmq.engine.topic.TopicDefinition;
import io.rmq.engine.topic.TopicKeys;
import io.rmq.engine.topic.TopicType;

/**
 * A consumer application in a JVM of its own, for {@link ConsumerJvm}: it consumes the scenario's topic
 * with the engine, appends every delivery to its history file before committing it, prints
 * {@code READY <worker ids>} once its consumers have started (and, with coordination, joined), and stops gracefully
 * when its standard input closes, printing {@code STOPPED}. The test may kill it at any moment.
 *
 * <p>Arguments: {@code <redis uri> <topic> <slots> <history file> <name> <zookeeper connect or ->
 * <prepare timeout ms> <processing µs> <consumers>}.
 */
public final class ConsumerMain {

    private ConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        String redisUri = args[0];
        TopicDefinition topic = new TopicDefinition(args[1], Integer.parseInt(args[2]), TopicType.FIXED_TIME);
        Path historyFile = Path.of(args[3]);
        String name = args[4];
        String zooKeeper = args[5];
        ConsumerOptions.Builder options = Scenario.consumerOptions(Duration.ofMillis(Long.parseLong(args[6])));
        if (!zooKeeper.equals("-")) {
            options.coordination(Scenario.coordination(zooKeeper).build());
        }
        long processingMicros = Long.parseLong(args[7]);
        int consumers = Integer.parseInt(args[8]);
        List<RecordingConsumer> started = new ArrayList<>();
        // deliveries name the JVM and its operating-system process id: consumer-3/12345
        String process = name + "/" + ProcessHandle.current().pid();
        try (HistoryLog log = HistoryLog.append(historyFile, process); RmqEngine engine = new RmqEngine(redisUri).start()) {
            TopicKeys keys = engine.registerTopic(topic).toCompletableFuture().join();
            for (int i = 0; i < consumers; i++) {
                started.add(new RecordingConsumer(engine, keys, options.build(), name + "-" + i, log::delivered,
                        processingMicros, 2).start());
            }
            List<String> workers = new ArrayList<>();
            if (!zooKeeper.equals("-")) {
                for (RecordingConsumer c : started) {
                    while (c.consumer().workerId().isEmpty()) {
                        Thread.sleep(20); // joining has no event to wait on from here
                    }
                    workers.add(c.consumer().workerId().get());
                }
            }
            System.out.println("READY " + String.join(",", workers));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null) {
                // runs until the test closes our input
            }
            started.parallelStream().forEach(RecordingConsumer::close);
        }
        System.out.println("STOPPED");
        System.out.flush();
    }
}
