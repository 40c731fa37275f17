package io.rmq.architecture;

import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.rmq.connector.i18n.RmqExceptions;
import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.MessageCatalogues;

/**
 * The connector's catalogues (RMQ-1xxx logs, RMQ-2xxx exceptions), by the shared checker; their ids must not
 * repeat the engine's.
 */
class MessageCatalogueTest {

    @TestFactory
    Stream<DynamicTest> catalogues() {
        return MessageCatalogues.of(RmqLogging.class, RmqExceptions.class)
                .alongside(EngineLogging.class, EngineExceptions.class)
                .checks();
    }
}
