package io.rmq.architecture;

import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.MessageCatalogues;

/**
 * The engine's catalogues (RMQ-00xx connection, 01xx consumers, 02xx coordination, 03xx exceptions), by the shared
 * checker.
 */
class EngineMessageCatalogueTest {

    @TestFactory
    Stream<DynamicTest> catalogues() {
        return MessageCatalogues.of(EngineLogging.class, EngineExceptions.class)
                .checks();
    }
}
