package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.PriorityRules;

/** The contract suite's rules of {@link PriorityRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class PriorityContractIT extends PriorityRules {
}
