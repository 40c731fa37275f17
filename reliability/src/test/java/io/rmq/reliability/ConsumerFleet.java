package io.rmq.reliability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The consumer JVMs of a scenario: started together, each killed or stopped and replaced by a new JVM
 * under a new name (so each JVM's history has a file of its own), and stopped gracefully at the end.
 * Not thread-safe: the test's thread drives it.
 */
final class ConsumerFleet implements AutoCloseable {

    private final ConsumerJvm.Spec spec;
    private final List<ConsumerJvm> running = new ArrayList<>();
    private final List<ConsumerJvm> everStarted = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();
    private int started;

    /** Starts {@code size} JVMs and waits until they are ready. */
    ConsumerFleet(ConsumerJvm.Spec spec, int size) {
        this.spec = spec;
        for (int i = 0; i < size; i++) {
            running.add(launch());
        }
        running.forEach(ConsumerJvm::awaitReady);
    }

    private ConsumerJvm launch() {
        String name = "consumer-" + started++;
        files.add(ConsumerJvm.historyFile(spec, name));
        ConsumerJvm jvm = ConsumerJvm.start(spec, name);
        everStarted.add(jvm);
        return jvm;
    }

    int size() {
        return running.size();
    }

    /**
     * {@code kill -9} of the {@code i}-th JVM, and a new one started in its place; returns the new one
     * without waiting until it is ready (a JVM that is still starting may be killed too).
     */
    ConsumerJvm killAndReplace(int i) {
        running.get(i).kill();
        ConsumerJvm replacement = launch();
        running.set(i, replacement);
        return replacement;
    }

    /** A graceful stop of the {@code i}-th JVM, and a new one in its place once ready. */
    void stopAndReplace(int i) {
        running.get(i).stop();
        running.set(i, launch().awaitReady());
    }

    /** {@code kill -9} of the JVM that runs the coordinated worker {@code workerId}, and a new one in its place. */
    void killAndReplace(String workerId) {
        for (int i = 0; i < running.size(); i++) {
            if (running.get(i).workerIds().contains(workerId)) {
                killAndReplace(i).awaitReady();
                return;
            }
        }
        throw new AssertionError("no JVM runs worker " + workerId);
    }

    /** Waits until every running JVM is ready. */
    void awaitReady() {
        running.forEach(ConsumerJvm::awaitReady);
    }

    /** Stops every running JVM gracefully. */
    void stopAll() {
        running.forEach(ConsumerJvm::stop);
    }

    /** The history files of every JVM ever started. */
    Path[] historyFiles() {
        return files.toArray(Path[]::new);
    }

    /** Lines with the text that any of its JVMs printed. */
    long linesContaining(String text) {
        return everStarted.stream().mapToLong(j -> j.linesContaining(text).size()).sum();
    }

    @Override
    public void close() {
        everStarted.forEach(ConsumerJvm::close);
    }
}
