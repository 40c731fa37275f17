package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.FailureStrategyRules;

/** The contract suite's rules of {@link FailureStrategyRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class FailureStrategyContractIT extends FailureStrategyRules {
}
