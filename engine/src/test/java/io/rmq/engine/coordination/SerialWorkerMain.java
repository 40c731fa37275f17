package io.rmq.engine.coordination;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.rmq.engine.consume.ConsumerOptions;

/**
 * An application instance in a process of its own, for {@link CrossProcessIT}: it starts coordinated
 * workers of the test topic that process messages under the {@link OverlapDetector}, prints
 * {@code JOINED <worker id>,...} once they have joined, and stops gracefully when its standard input
 * closes (or is killed by the test).
 *
 * <p>Arguments: {@code <redis uri> <zookeeper connect> <instance name> <workers> <prepare timeout ms>}.
 */
public final class SerialWorkerMain {

    private SerialWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        String redisUri = args[0];
        String zooKeeper = args[1];
        String name = args[2];
        int workers = Integer.parseInt(args[3]);
        ConsumerOptions options = CoordinationFixture.options()
                .prepareTimeout(Duration.ofMillis(Long.parseLong(args[4])))
                .coordination(CoordinationFixture.coordination(zooKeeper).build()).build();
        try (OverlapDetector detector = new OverlapDetector(redisUri);
                AppInstance instance = new AppInstance(name, redisUri, detector, 4, 2)) {
            instance.start(CoordinationFixture.TOPIC, options, workers);
            System.out.println("JOINED " + String.join(",", instance.workerIdsWhenJoined()));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null) {
                // runs until the test closes our input
            }
        }
        System.out.println("STOPPED");
        System.out.flush();
    }
}
