package io.rmq.testing.zookeeper;

import java.util.function.Supplier;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives a test class a real, in-process ZooKeeper: use
 * {@code @ExtendWith(ZooKeeperExtension.class)} or the meta-annotation {@link ZooKeeperTest}.
 *
 * <p>It injects parameters of test methods, lifecycle methods ({@code @BeforeAll}, {@code @BeforeEach},
 * ...) and constructors:
 * <ul>
 * <li>{@link ZooKeeperTestServer}: a single server;</li>
 * <li>{@link ZooKeeperTestEnsemble}: an ensemble of {@value ZooKeeperTestEnsemble#DEFAULT_SIZE} servers,
 * with a leader elected, for tests that make it lose its leader.</li>
 * </ul>
 * Each is started the first time a method of the class asks for it (a class that never asks starts
 * nothing), shared by all the tests of the class, and closed after the class. The data stays from one
 * test to the next: tests that must not see each other's znodes use a root of their own.
 *
 * <p>Tests simulate outages by stopping the server ({@link ZooKeeperTestServer#stop()}) or killing
 * servers of the ensemble. Before each test the extension starts again whatever an earlier test of the
 * class left stopped, so a test that fails in the middle of an outage does not break the next one.
 */
public final class ZooKeeperExtension implements BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ZooKeeperExtension.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        ZooKeeperTestServer server = existing(context, ZooKeeperTestServer.class);
        if (server != null && !server.isRunning()) {
            server.restart();
        }
        ZooKeeperTestEnsemble ensemble = existing(context, ZooKeeperTestEnsemble.class);
        if (ensemble != null) {
            ensemble.restartKilled();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == ZooKeeperTestServer.class || type == ZooKeeperTestEnsemble.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == ZooKeeperTestServer.class) {
            return started(context, ZooKeeperTestServer.class, ZooKeeperTestServer::start);
        }
        return started(context, ZooKeeperTestEnsemble.class,
                () -> ZooKeeperTestEnsemble.start(ZooKeeperTestEnsemble.DEFAULT_SIZE));
    }

    /** The instance of the test class's store (or an enclosing class's), started on first use. */
    private static <T extends AutoCloseable> T started(ExtensionContext context, Class<T> type, Supplier<T> start) {
        return type.cast(classContext(context).getStore(NAMESPACE)
                .getOrComputeIfAbsent(type, key -> new Started<>(start.get()), Started.class).value());
    }

    /** The instance started for the test's class (or an enclosing class), or null. */
    private static <T> T existing(ExtensionContext context, Class<T> type) {
        Started<?> started = context.getStore(NAMESPACE).get(type, Started.class);
        return started == null ? null : type.cast(started.value());
    }

    /** The context of the test class: the one that closes its store after the class. */
    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
            c = c.getParent().get();
        }
        return c;
    }

    /** Closes the server or ensemble when JUnit closes the store it is kept in. */
    private record Started<T extends AutoCloseable>(T value) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws Exception {
            value.close();
        }
    }
}
