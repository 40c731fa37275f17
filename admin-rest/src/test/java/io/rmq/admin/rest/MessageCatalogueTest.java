package io.rmq.admin.rest;

import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.rmq.admin.rest.i18n.AdminRestLogging;
import io.rmq.admin.rest.i18n.AdminRestMessages;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.MessageCatalogues;

/**
 * The module's catalogues, by the shared checker: every text and log line starts with an id of its own in the
 * module's range ({@code RMQ-09xx}), none repeats one of the engine's.
 */
class MessageCatalogueTest {

    @TestFactory
    Stream<DynamicTest> catalogues() {
        return MessageCatalogues.of(AdminRestMessages.class, AdminRestLogging.class)
                .withIds(Pattern.compile("^(RMQ-09\\d\\d) \\S"))
                .alongside(EngineLogging.class, EngineExceptions.class)
                .checks();
    }
}
