package io.rmq.engine.coordination;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A live worker of a topic as registered in ZooKeeper (its ephemeral node): one consumer, that is
 * one consumer thread. Immutable.
 *
 * @param id         unique for the consumer's life: {@code <consumer>@<host>:<pid>#<random>}
 * @param instance   the process it runs in, {@code <host>:<pid>}; the leader spreads slots over
 *                   instances before doubling up inside one
 * @param consumer   the consumer's name (the channel name in the connector, e.g. {@code prices$2})
 * @param registered when the worker registered
 */
public record WorkerInfo(String id, String instance, String consumer, Instant registered) {

    public WorkerInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(registered, "registered");
    }

    /** A new worker of this process: {@code <consumer>@<host>:<pid>#<random>}, registered now. */
    static WorkerInfo forThisProcess(String consumerName) {
        String host = safe(hostName());
        long pid = ProcessHandle.current().pid();
        byte[] random = new byte[3];
        ThreadLocalRandom.current().nextBytes(random);
        String id = safe(consumerName) + "@" + host + ":" + pid + "#" + HexFormat.of().formatHex(random);
        return new WorkerInfo(id, host + ":" + pid, consumerName, Instant.now());
    }

    private static String hostName() {
        String host = System.getenv("HOSTNAME");
        if (host != null && !host.isBlank()) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    /** Keeps a name usable inside a ZooKeeper node name and a space-separated assignment line. */
    static String safe(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> out.append(
                (c < 128 && (Character.isLetterOrDigit(c) || "._$-".indexOf(c) >= 0)) ? (char) c : '_'));
        return out.length() == 0 ? "_" : out.toString();
    }

    /** The node data: {@code key=value} lines. */
    byte[] encode() {
        return ("id=" + id + "\ninstance=" + instance + "\nconsumer=" + consumer + "\nregistered="
                + registered.toEpochMilli() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads node data; unknown keys are ignored and missing ones fall back to what the node name
     * tells, so workers of other versions still count.
     */
    static WorkerInfo decode(String nodeName, byte[] data) {
        Map<String, String> values = new LinkedHashMap<>();
        if (data != null) {
            for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        String id = values.getOrDefault("id", nodeName);
        long registered;
        try {
            registered = Long.parseLong(values.getOrDefault("registered", "0"));
        } catch (NumberFormatException e) {
            registered = 0;
        }
        return new WorkerInfo(id, values.getOrDefault("instance", id), values.getOrDefault("consumer", id),
                Instant.ofEpochMilli(registered));
    }
}
