package io.rmq.engine.schedule;

import java.util.Locale;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * What a schedule does with the ticks that fell while no application instance ran it (all stopped, or Redis
 * unreachable): decided once, cluster-wide, by the first instance that starts again ({@code tick.lua}).
 */
public enum MissedPolicy {
    /** Record the latest missed tick without sending anything: the gap gives no message. */
    SKIP,
    /** Send exactly one message, for the latest missed tick. */
    CATCH_UP;

    /** The policy's name in configuration: {@code skip} or {@code catch-up}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The policy named {@code value} ({@code skip}, {@code catch-up}, any case, or the enum names). */
    public static MissedPolicy parse(String schedule, String setting, String value) {
        String normal = value == null ? "" : value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (MissedPolicy policy : values()) {
            if (policy.name().equals(normal)) {
                return policy;
            }
        }
        throw EngineExceptions.ex.badMissedPolicy(schedule, setting, value);
    }
}
