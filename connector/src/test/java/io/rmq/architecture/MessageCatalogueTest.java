package io.rmq.architecture;

import org.junit.jupiter.api.Test;

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

    private final MessageCatalogues catalogues = MessageCatalogues.of(RmqLogging.class, RmqExceptions.class)
            .alongside(EngineLogging.class, EngineExceptions.class);

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
