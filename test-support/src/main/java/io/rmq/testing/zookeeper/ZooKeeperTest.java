package io.rmq.testing.zookeeper;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that runs against a real, in-process ZooKeeper: shorthand for
 * {@code @ExtendWith(ZooKeeperExtension.class)}; see {@link ZooKeeperExtension} for what it starts,
 * injects and closes.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ZooKeeperExtension.class)
public @interface ZooKeeperTest {
}
