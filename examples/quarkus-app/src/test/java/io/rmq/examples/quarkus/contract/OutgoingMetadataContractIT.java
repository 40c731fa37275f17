package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.OutgoingMetadataRules;

/** The contract suite's rules of {@link OutgoingMetadataRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class OutgoingMetadataContractIT extends OutgoingMetadataRules {
}
