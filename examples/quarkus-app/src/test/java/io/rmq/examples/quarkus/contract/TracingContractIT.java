package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.TracingRules;

/**
 * The contract suite's rules of {@link TracingRules}, on Quarkus with {@code quarkus-opentelemetry} (a test
 * dependency): {@code io.rmq.tck.rules.TracingConfigSource}, registered by the test resources, points the extension's
 * OTLP exporter at a receiver in this JVM.
 */
@QuarkusTest
public class TracingContractIT extends TracingRules {
}
