package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.PauseRules;

/** The contract suite's rules of {@link PauseRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class PauseContractIT extends PauseRules {
}
