package io.rmq.benchmarks;

import java.util.Map;

import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

import io.rmq.examples.support.ExampleConfig;

/**
 * One Weld SE container with SmallRye Reactive Messaging and the connector, its channels configured by
 * {@link BenchChannels}, and the benchmark's beans. The benchmark starts one per channel configuration,
 * one after the other in the same JVM. Use it from the main thread.
 */
final class BenchContainer implements AutoCloseable {

    private final ExampleConfig config;
    private final WeldContainer weld;
    final BenchSender sender;
    final ThroughputConsumer throughput;
    final LatenessConsumer lateness;
    final LoadConsumer load;

    private BenchContainer(ExampleConfig config, WeldContainer weld) {
        this.config = config;
        this.weld = weld;
        this.sender = weld.select(BenchSender.class).get();
        this.throughput = weld.select(ThroughputConsumer.class).get();
        this.lateness = weld.select(LatenessConsumer.class).get();
        this.load = weld.select(LoadConsumer.class).get();
    }

    static BenchContainer start(Map<String, String> channels) {
        ExampleConfig config = ExampleConfig.register(BenchSettings.PROGRAM, channels);
        WeldContainer weld = null;
        try {
            weld = new Weld().initialize();
            return new BenchContainer(config, weld);
        } catch (RuntimeException e) {
            if (weld != null) {
                weld.close();
            }
            config.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            weld.close();
        } finally {
            config.close();
        }
    }
}
