package io.rmq.examples.dashboard;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The running server's {@code messages.log}, read from a mark on: what the requests since wrote to it.
 * Not thread-safe.
 */
final class ServerLog {

    private final Path file;

    ServerLog(Path file) {
        this.file = file;
    }

    /** The server of the POM's integration tests (serverName rmqDashboardTest), or the one a property names. */
    static ServerLog ofTestServer() {
        return new ServerLog(Path.of(System.getProperty("rmq.example.log",
                "target/liberty/wlp/usr/servers/rmqDashboardTest/logs/messages.log")));
    }

    boolean exists() {
        return Files.isRegularFile(file);
    }

    /** Where the log ends now. */
    long mark() throws IOException {
        return exists() ? Files.size(file) : 0;
    }

    /** What was written after {@code mark}. */
    String since(long mark) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= mark) {
                return "";
            }
            byte[] bytes = new byte[(int) Math.min(length - mark, 64L * 1024 * 1024)];
            in.seek(mark);
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
