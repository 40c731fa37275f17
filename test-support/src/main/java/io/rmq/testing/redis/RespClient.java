package io.rmq.testing.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One Redis command on a fresh plain socket, spoken in RESP: no client library, no client thread and no
 * {@code redis-cli} (the binary of embedded-redis comes without one); the one connection is closed again. For
 * fixtures that wait for a server, configure it or check what an application left behind. Stateless and
 * thread-safe.
 */
public final class RespClient {

    /** How long a call waits to connect. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** How long a call waits for its reply (a {@code DEBUG RELOAD} of a large data set takes a while). */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(600);

    private RespClient() {
    }

    /**
     * Runs one command on the loopback server of {@code port}.
     *
     * @return the reply as text: a simple string, an integer or a bulk string as such ({@code null} for a null bulk
     *         string), an array one element per line (nested arrays flattened)
     * @throws IllegalStateException when the server cannot be reached or replies with an error
     */
    public static String command(int port, String... args) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(Loopback.HOST, port), (int) CONNECT_TIMEOUT.toMillis());
            socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
            write(socket.getOutputStream(), args);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            List<String> values = new ArrayList<>();
            boolean array = read(in, values, String.join(" ", args));
            return array ? String.join("\n", values) : values.isEmpty() ? null : values.get(0);
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", args) + " on port " + port + " failed: " + e, e);
        }
    }

    private static void write(OutputStream socketOut, String... args) throws IOException {
        OutputStream out = new BufferedOutputStream(socketOut);
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.flush();
    }

    /** Reads one reply into {@code values}; true when it was an array. */
    private static boolean read(InputStream in, List<String> values, String command) throws IOException {
        String line = readLine(in);
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '+', ':' -> values.add(rest);
            case '-' -> throw new IllegalStateException(command + " failed: " + rest);
            case '$' -> {
                int length = Integer.parseInt(rest);
                if (length >= 0) {
                    byte[] data = in.readNBytes(length + 2);
                    values.add(new String(data, 0, length, StandardCharsets.UTF_8));
                }
            }
            case '*' -> {
                for (int i = Integer.parseInt(rest); i > 0; i--) {
                    read(in, values, command);
                }
                return true;
            }
            default -> throw new IllegalStateException(command + ": unexpected reply " + line);
        }
        return false;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed before the reply ended");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
