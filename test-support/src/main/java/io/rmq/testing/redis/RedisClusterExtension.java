package io.rmq.testing.redis;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension for tests against the shared local {@link RedisClusterTestServer}: before each test
 * it waits until the cluster is whole again (a test may have killed a master) and empties it; it injects
 * the {@link RedisClusterTestServer} into test and {@code @BeforeEach} methods. Tests that use it must not
 * run concurrently in one JVM.
 */
public final class RedisClusterExtension implements BeforeEachCallback, ParameterResolver {

    @Override
    public void beforeEach(ExtensionContext context) {
        RedisClusterTestServer cluster = RedisClusterTestServer.shared();
        if (cluster.running().size() < 6) {
            cluster.heal();
        }
        cluster.reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisClusterTestServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return RedisClusterTestServer.shared();
    }
}
