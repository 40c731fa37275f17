package io.rmq.cdi;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an application may leave behind in the JVM and in Redis: the threads of the connector
 * ({@code rmq-...}) and of Lettuce ({@code lettuce-...}), and Redis client connections.
 *
 * <p>Redis is queried over a plain socket with a hand-written RESP call, so that checking starts no
 * Lettuce thread and opens no connection that would have to be told apart from the application's.
 * Take a {@link #snapshot} before the application starts: threads that existed before (the test
 * support's own Lettuce threads, say) are not leftovers. Stateless.
 */
final class Leftovers {

    private Leftovers() {
    }

    /** The connector's and Lettuce's threads alive now. */
    static Set<Thread> snapshot() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("rmq-") || t.getName().startsWith("lettuce-")))
                .collect(Collectors.toSet());
    }

    /** The names of the connector's and Lettuce's threads alive now that are not in {@code before}. */
    static List<String> newThreads(Set<Thread> before) {
        return snapshot().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted()
                .collect(Collectors.toList());
    }

    /** The client connections of the Redis server at {@code port}, one {@code CLIENT LIST} line each, except the asking one. */
    static List<String> redisClients(int port) {
        String list = call(port, "CLIENT", "LIST");
        return Arrays.stream(list.split("\n")).map(String::trim).filter(line -> !line.isEmpty())
                .filter(line -> !line.contains("cmd=client|list") && !line.contains("cmd=client "))
                .collect(Collectors.toList());
    }

    /** One command on a fresh connection; the reply as text (simple string, integer or bulk string). */
    static String call(int port, String... args) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                        .append(arg).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String line = readLine(in);
            switch (line.charAt(0)) {
                case '-':
                    throw new IllegalStateException("Redis replied " + line.substring(1));
                case '$':
                    int length = Integer.parseInt(line.substring(1));
                    return length < 0 ? null : new String(in.readNBytes(length), StandardCharsets.UTF_8);
                default:
                    return line.substring(1);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Redis at port " + port + " did not answer " + Arrays.toString(args), e);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new IOException("connection closed before a complete reply");
    }
}
