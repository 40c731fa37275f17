package io.rmq.architecture;

import org.junit.jupiter.api.Test;

import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.MessageCatalogues;

/**
 * The engine's catalogues (RMQ-00xx connection, 01xx consumers, 02xx coordination, 03xx exceptions), by the shared
 * checker.
 */
class EngineMessageCatalogueTest {

    private final MessageCatalogues catalogues = MessageCatalogues.of(EngineLogging.class, EngineExceptions.class);

    @Test
    void everyMessageStartsWithAWellFormedId() {
        catalogues.everyMessageStartsWithAWellFormedId();
    }

    @Test
    void noIdIsDeclaredTwice() {
        catalogues.noIdIsDeclaredTwice();
    }

    @Test
    void everyMessageIsUsedByProductionCode() {
        catalogues.everyMessageIsUsedByProductionCode();
    }

    @Test
    void noIdIsWrittenOutsideTheCatalogues() {
        catalogues.noIdIsWrittenOutsideTheCatalogues();
    }
}
