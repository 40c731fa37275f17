package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.BatchRules;

/** The contract suite's rules of {@link BatchRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class BatchContractIT extends BatchRules {
}
