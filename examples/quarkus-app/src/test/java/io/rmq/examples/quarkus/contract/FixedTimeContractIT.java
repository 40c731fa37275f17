package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.FixedTimeRules;

/** The contract suite's rules of {@link FixedTimeRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class FixedTimeContractIT extends FixedTimeRules {
}
