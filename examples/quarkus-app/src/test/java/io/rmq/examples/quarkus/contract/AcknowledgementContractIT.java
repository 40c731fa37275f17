package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.AcknowledgementRules;

/** The contract suite's rules of {@link AcknowledgementRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class AcknowledgementContractIT extends AcknowledgementRules {
}
