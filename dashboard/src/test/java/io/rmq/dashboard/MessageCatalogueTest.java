package io.rmq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rmq.dashboard.i18n.DashboardLogging;
import io.rmq.dashboard.i18n.DashboardMessages;

/** The module's catalogues: every text and log line starts with an id of its own in the module's range (RMQ-0970..0989). */
class MessageCatalogueTest {

    private static final Pattern ID = Pattern.compile("^(RMQ-09(7\\d|8\\d)) \\S");

    @Test
    void everyTextHasAnIdOfItsOwn() throws Exception {
        Map<String, String> ids = new HashMap<>();
        for (Method method : methods(DashboardMessages.class)) {
            Object text = method.invoke(DashboardMessages.msg, arguments(method));
            record(ids, method, text instanceof Throwable t ? t.getMessage() : (String) text);
        }
        List<LogRecord> lines = new ArrayList<>();
        Logger logger = Logger.getLogger("io.rmq.dashboard");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord line) {
                lines.add(line);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level level = logger.getLevel();
        logger.addHandler(capture);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
        try {
            for (Method method : methods(DashboardLogging.class)) {
                lines.clear();
                method.invoke(DashboardLogging.log, arguments(method));
                assertThat(lines).as(method.getName()).hasSize(1);
                record(ids, method, lines.get(0).getMessage());
            }
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(true);
            logger.setLevel(level);
        }
        assertThat(ids).hasSize(methods(DashboardMessages.class).size() + methods(DashboardLogging.class).size());
    }

    private static void record(Map<String, String> ids, Method method, String text) {
        Matcher m = ID.matcher(text);
        assertThat(m.find()).as("%s: '%s' starts with an id from RMQ-0970 to RMQ-0989", method.getName(), text).isTrue();
        String previous = ids.put(m.group(1), method.getName());
        assertThat(previous).as("%s is used by %s and %s", m.group(1), previous, method.getName()).isNull();
    }

    private static List<Method> methods(Class<?> catalogue) {
        List<Method> out = new ArrayList<>();
        for (Method method : catalogue.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())) {
                out.add(method);
            }
        }
        return out;
    }

    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (types[i] == String.class) {
                args[i] = "x" + i;
            } else if (types[i] == long.class) {
                args[i] = 1L;
            } else if (types[i] == Throwable.class) {
                args[i] = new IllegalStateException("cause");
            } else {
                throw new AssertionError("no sample argument of " + types[i] + " for " + method);
            }
        }
        return args;
    }
}
