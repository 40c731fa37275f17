package io.rmq.testing.redis;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import redis.embedded.core.ExecutableProvider;

/**
 * A {@code redis-server} binary that the fixtures run: the one on the {@code PATH} when there is one (CI installs
 * Redis 7 with apt), otherwise the Linux/macOS binary shipped inside {@code com.github.codemonstur:embedded-redis}
 * (Redis 6.2), extracted once to a temporary file. {@link #find()} makes that choice; {@link #embedded()} and
 * {@link #fromPath()} name one (the benchmark compares both). Immutable; the lookups are thread-safe.
 */
public final class RedisBinary {

    private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\S*)");

    private static RedisBinary found;
    private static RedisBinary embedded;

    private final Path path;
    private final String origin;
    private volatile String version;

    private RedisBinary(Path path, String origin) {
        this.path = path;
        this.origin = origin;
    }

    /** {@code redis-server} from the {@code PATH}, else the binary of embedded-redis; looked up once per JVM. */
    public static synchronized RedisBinary find() {
        if (found == null) {
            found = fromPath().orElseGet(RedisBinary::embedded);
        }
        return found;
    }

    /** {@code redis-server} from the {@code PATH}, when there is one. */
    public static Optional<RedisBinary> fromPath() {
        return onPath("redis-server").map(p -> new RedisBinary(p, "redis-server from the PATH"));
    }

    /**
     * The Redis 6.2 binary shipped in embedded-redis, extracted on the first call.
     *
     * @throws IllegalStateException when it cannot be extracted
     */
    public static synchronized RedisBinary embedded() {
        if (embedded == null) {
            try {
                embedded = new RedisBinary(ExecutableProvider.newJarResourceProvider().get().toPath(),
                        "the binary of com.github.codemonstur:embedded-redis");
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("no redis-server on the PATH, and the embedded-redis binary cannot be"
                        + " extracted", e);
            }
        }
        return embedded;
    }

    /** The executable of this name in a folder of the {@code PATH}, when there is one. */
    public static Optional<Path> onPath(String executable) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, executable);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The executable file. */
    public Path path() {
        return path;
    }

    /** Where the binary comes from: the {@code PATH}, or embedded-redis. */
    public String origin() {
        return origin;
    }

    /** The version the binary reports ({@code redis-server --version}), e.g. {@code 7.0.15}. */
    public String version() {
        if (version == null) {
            String out = CommandLine.run(List.of(path.toString(), "--version"), Duration.ofSeconds(30));
            Matcher m = VERSION.matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("cannot read the version of " + path + ": " + out);
            }
            version = m.group(1) + "." + m.group(2);
        }
        return version;
    }

    /** The major version: 7 for {@code 7.0.15}. */
    public int majorVersion() {
        return Integer.parseInt(version().substring(0, version().indexOf('.')));
    }

    @Override
    public String toString() {
        return path + " (" + origin + ")";
    }
}
