package io.rmq.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.rmq.testing.redis.RedisTest;
import io.rmq.testing.redis.RedisTestServer;

/**
 * Curator and ZooKeeper are optional dependencies of the engine: a producer and a consumer that do not
 * coordinate run, against a real Redis, in a class loader that cannot see either library.
 */
@RedisTest
class WithoutCuratorIT {

    @Test
    void aProducerAndAnUncoordinatedConsumerNeedNeitherCuratorNorZooKeeper() throws Exception {
        ClassLoader withoutCurator = new WithoutCurator(WithoutCuratorIT.class.getClassLoader());
        assertThatThrownBy(() -> withoutCurator.loadClass("org.apache.curator.framework.CuratorFramework"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> withoutCurator.loadClass("org.apache.zookeeper.common.PathUtils"))
                .isInstanceOf(ClassNotFoundException.class);

        Class<?> run = withoutCurator.loadClass(SendAndConsume.class.getName());
        assertThat(run.getClassLoader()).isSameAs(withoutCurator);
        @SuppressWarnings("unchecked")
        Function<String, Callable<String>> factory = (Function<String, Callable<String>>) run
                .getDeclaredConstructor().newInstance();
        assertThat(factory.apply(RedisTestServer.shared().uri()).call()).isEqualTo("without ZooKeeper");
    }

    /**
     * Defines the project's classes itself, from the bytes its parent finds, so that what they load goes through
     * here; refuses Curator and ZooKeeper; leaves everything else to its parent.
     */
    private static final class WithoutCurator extends ClassLoader {

        WithoutCurator(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.apache.curator.") || name.startsWith("org.apache.zookeeper.")) {
                throw new ClassNotFoundException(name + " is hidden from this test");
            }
            if (!name.startsWith("io.rmq.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = define(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private Class<?> define(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
