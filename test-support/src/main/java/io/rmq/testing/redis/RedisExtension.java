package io.rmq.testing.redis;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension for tests against the real {@link RedisTestServer}: use
 * {@code @ExtendWith(RedisExtension.class)} or the meta-annotation {@link RedisTest}.
 *
 * <p>Before each test it makes sure the server runs (starting it again if a test stopped it) and
 * empties it ({@code FLUSHALL}, {@code SCRIPT FLUSH}), so each test starts from an empty Redis with
 * no cached scripts. It injects parameters of test methods and {@code @BeforeEach} methods:
 * <ul>
 * <li>{@link RedisTestServer}: the server, e.g. for {@link RedisTestServer#uri()} or to simulate an outage;</li>
 * <li>{@link RedisConnections}: Lettuce connections for this test, closed after it.</li>
 * </ul>
 *
 * <p>Because every test empties the one shared server, tests using it must not run concurrently
 * in one JVM (JUnit runs tests sequentially unless parallel execution is switched on).
 */
public final class RedisExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisExtension.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        RedisTestServer server = RedisTestServer.shared();
        server.start();
        server.reset();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        RedisConnections connections = context.getStore(NAMESPACE).remove(RedisConnections.class, RedisConnections.class);
        if (connections != null) {
            connections.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RedisTestServer.class || type == RedisConnections.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == RedisTestServer.class) {
            return RedisTestServer.shared();
        }
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(RedisConnections.class,
                key -> new RedisConnections(RedisTestServer.shared()), RedisConnections.class);
    }
}
