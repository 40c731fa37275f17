package io.rmq.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ConsumerMain} (or {@link ConnectorConsumerMain}) in a child JVM started with this JVM's class path. Its output is kept, and
 * its warnings, errors and exceptions are echoed with a prefix. {@link #kill()} is {@code kill -9};
 * {@link #stop()} is a graceful stop (its standard input closes).
 */
final class ConsumerJvm implements AutoCloseable {

    /** How a consumer JVM is started; one per scenario. */
    record Spec(String redisUri, String topic, int slots, Path historyDir, String zooKeeper, long prepareTimeoutMillis,
            long processingMicros, int consumers, Class<?> main) {

        /** A JVM that runs the engine's consumer ({@link ConsumerMain}). */
        Spec(String redisUri, String topic, int slots, Path historyDir, String zooKeeper, long prepareTimeoutMillis,
                long processingMicros, int consumers) {
            this(redisUri, topic, slots, historyDir, zooKeeper, prepareTimeoutMillis, processingMicros, consumers,
                    ConsumerMain.class);
        }

        /** The same JVM running the connector on Weld instead ({@link ConnectorConsumerMain}). */
        Spec onWeld() {
            return new Spec(redisUri, topic, slots, historyDir, zooKeeper, prepareTimeoutMillis, processingMicros, consumers,
                    ConnectorConsumerMain.class);
        }
    }

    private final Process process;
    private final String name;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final CompletableFuture<List<String>> ready = new CompletableFuture<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();

    private ConsumerJvm(Process process, String name) {
        this.process = process;
        this.name = name;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    output.add(line);
                    if (line.startsWith("READY")) {
                        String ids = line.substring("READY".length()).strip();
                        ready.complete(ids.isEmpty() ? List.of() : List.of(ids.split(",")));
                    } else if (line.equals("STOPPED")) {
                        stopped.complete(null);
                    } else if (line.startsWith("WARNING") || line.startsWith("SEVERE") || line.contains("Exception")) {
                        System.out.println("[" + name + "] " + line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            ready.completeExceptionally(new AssertionError(name + " ended before it was ready; output: " + output));
        }, "output-of-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static ConsumerJvm start(Spec spec, String name) {
        return start(spec, name, List.of());
    }

    /** Starts a JVM as {@link #start(Spec, String)} does, with {@code extra} arguments after the spec's. */
    static ConsumerJvm start(Spec spec, String name, List<String> extra) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // C1 only and the serial collector: the JVM starts in about half the time, on two cores
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), spec.main().getName(), spec.redisUri(),
                spec.topic(), Integer.toString(spec.slots()), historyFile(spec, name).toString(), name,
                spec.zooKeeper() == null ? "-" : spec.zooKeeper(), Long.toString(spec.prepareTimeoutMillis()),
                Long.toString(spec.processingMicros()), Integer.toString(spec.consumers())));
        command.addAll(extra);
        try {
            return new ConsumerJvm(new ProcessBuilder(command).redirectErrorStream(true).start(), name);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    static Path historyFile(Spec spec, String name) {
        return spec.historyDir().resolve(name + ".history");
    }

    String name() {
        return name;
    }

    /** Waits until its consumers have started (and joined, with coordination). */
    ConsumerJvm awaitReady() {
        try {
            ready.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(name + " was not ready within 60 s; output: " + output, e);
        }
        return this;
    }

    /** With coordination, the worker ids of its consumers, once ready. */
    List<String> workerIds() {
        return awaitReady().ready.join();
    }

    /** {@code kill -9}. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A graceful stop: closes its input and waits until it has stopped its consumers and exited. */
    void stop() {
        try {
            process.getOutputStream().close();
            stopped.get(60, TimeUnit.SECONDS);
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new AssertionError(name + " did not stop gracefully; output: " + output, e);
        }
    }

    /** Lines it printed that contain the text. */
    List<String> linesContaining(String text) {
        return output.stream().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
