package io.rmq.dashboard;

import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.rmq.admin.rest.i18n.AdminRestLogging;
import io.rmq.admin.rest.i18n.AdminRestMessages;
import io.rmq.dashboard.i18n.DashboardLogging;
import io.rmq.dashboard.i18n.DashboardMessages;
import io.rmq.engine.i18n.EngineExceptions;
import io.rmq.engine.i18n.EngineLogging;
import io.rmq.testing.MessageCatalogues;

/**
 * The module's catalogues, by the shared checker: every text and log line starts with an id of its own in the
 * module's range (RMQ-0970..0989), none repeats one of the admin endpoints' or the engine's.
 */
class MessageCatalogueTest {

    @TestFactory
    Stream<DynamicTest> catalogues() {
        return MessageCatalogues.of(DashboardMessages.class, DashboardLogging.class)
                .withIds(Pattern.compile("^(RMQ-09(7\\d|8\\d)) \\S"))
                .alongside(AdminRestMessages.class, AdminRestLogging.class, EngineLogging.class, EngineExceptions.class)
                .checks();
    }
}
