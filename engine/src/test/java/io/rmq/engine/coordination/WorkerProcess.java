package io.rmq.engine.coordination;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SerialWorkerMain} in a second JVM, started with this JVM's class path. Its output is
 * echoed with a prefix and kept, so tests can look for log lines. {@link #kill()} ends it abruptly
 * (no cleanup: its ZooKeeper session expires, its messages wait for their deadline), {@link #freeze()}
 * and {@link #thaw()} stop and continue it as a long garbage-collection pause would.
 */
final class WorkerProcess implements AutoCloseable {

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final BlockingQueue<String> joined = new LinkedBlockingQueue<>();

    private WorkerProcess(Process process, String name) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    output.add(line);
                    System.out.println("[" + name + "] " + line);
                    if (line.startsWith("JOINED ")) {
                        joined.add(line.substring("JOINED ".length()));
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "output-of-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static WorkerProcess start(String redisUri, String zooKeeper, String name, int workers, long prepareTimeoutMillis) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // C1 only and the serial collector: the worker starts in about half the time, on two cores
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                SerialWorkerMain.class.getName(), redisUri, zooKeeper, name, Integer.toString(workers),
                Long.toString(prepareTimeoutMillis)));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).directory(new File(".")).start();
            return new WorkerProcess(p, name);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    /** Waits until its workers have joined, and returns their ids. */
    List<String> awaitJoined() throws InterruptedException {
        String ids = joined.poll(CoordinationFixture.WAIT.toSeconds(), TimeUnit.SECONDS);
        if (ids == null) {
            throw new AssertionError("the worker process did not join within " + CoordinationFixture.WAIT + "; output: "
                    + output);
        }
        return Arrays.asList(ids.split(","));
    }

    /** Lines it printed that contain the text. */
    List<String> linesContaining(String text) {
        return output.stream().filter(l -> l.contains(text)).toList();
    }

    long pid() {
        return process.pid();
    }

    /** Ends it abruptly, like {@code kill -9}. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Stops the process ({@code SIGSTOP}): it runs no code, sends no heartbeat, until {@link #thaw()}. */
    void freeze() throws Exception {
        signal("STOP");
    }

    void thaw() throws Exception {
        signal("CONT");
    }

    private void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Stops it gracefully (closes its input) and waits, or kills it. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            thaw();
            process.getOutputStream().close();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } catch (Exception e) {
            process.destroyForcibly();
        }
    }
}
