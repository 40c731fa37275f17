package io.rmq.examples.quarkus.contract;

import io.quarkus.test.junit.QuarkusTest;
import io.rmq.tck.rules.PendingMessagesRules;

/** The contract suite's rules of {@link PendingMessagesRules}, on Quarkus (see the package's description). */
@QuarkusTest
public class PendingMessagesContractIT extends PendingMessagesRules {
}
