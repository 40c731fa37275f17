package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.RangeMergeRules;

/** The contract suite's rules of {@link RangeMergeRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class RangeMergeContractIT extends RangeMergeRules {
}
