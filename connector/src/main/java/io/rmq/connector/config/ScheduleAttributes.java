package io.rmq.connector.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.rmq.engine.schedule.MissedPolicy;
import io.rmq.engine.schedule.ScheduleDefinition;
import io.rmq.engine.schedule.ScheduleTiming;
import io.rmq.engine.topic.TopicType;

/**
 * The recurring schedules an outgoing channel declares, {@code schedules.<name>.<field>}: {@code cron} (UNIX, 5
 * fields) with an optional {@code zone}, or {@code every} (an ISO-8601 duration); {@code payload} (the message
 * content, UTF-8), {@code slot-basis}, {@code missed} ({@code skip}, the default, or {@code catch-up}), and for
 * {@code PRIORITY} and {@code RANGE_MERGE} topics {@code priority} or {@code time-range} (ms; by default the
 * channel's own {@code priority} or {@code time-range}). Each wrong setting is a problem of the channel naming the
 * property; an unknown field is one too, with the fields allowed. Stateless.
 */
final class ScheduleAttributes {

    /** What every schedule property of a channel starts with. */
    static final String PREFIX = "schedules.";

    private static final Set<String> FIELDS = Set.of("cron", "zone", "every", "payload", "slot-basis", "missed",
            "priority", "time-range");

    private ScheduleAttributes() {
    }

    /** The schedules the channel declares, by name; problems recorded in {@code a}. */
    static List<ScheduleDeclaration> read(ChannelAttributes a) {
        Map<String, Map<String, String>> byName = new TreeMap<>();
        Set<String> names = new TreeSet<>();
        try {
            a.config().getPropertyNames().forEach(names::add);
        } catch (RuntimeException e) {
            return List.of();
        }
        for (String property : names) {
            if (!property.startsWith(PREFIX)) {
                continue;
            }
            String rest = property.substring(PREFIX.length());
            int dot = rest.lastIndexOf('.');
            String field = dot < 0 ? "" : rest.substring(dot + 1);
            if (dot <= 0 || !FIELDS.contains(field)) {
                a.problem(property, null, "a schedule's setting is schedules.<name>.<field> with a field among "
                        + new TreeSet<>(FIELDS));
                continue;
            }
            value(a, property).ifPresent(v -> byName.computeIfAbsent(rest.substring(0, dot), n -> new TreeMap<>())
                    .put(field, v));
        }
        return byName.entrySet().stream().map(e -> declaration(a, e.getKey(), e.getValue()))
                .flatMap(Optional::stream).toList();
    }

    private static Optional<ScheduleDeclaration> declaration(ChannelAttributes a, String name, Map<String, String> f) {
        String base = PREFIX + name + ".";
        int before = a.problemCount();
        ScheduleTiming timing = null;
        MissedPolicy missed = MissedPolicy.SKIP;
        String at = "cron";
        try {
            if (f.containsKey("cron") != f.containsKey("every")) {
                // the setting at fault: the expression or interval alone first, then with the zone
                at = f.containsKey("cron") ? "cron" : "every";
                ScheduleTiming.of(name, f.get("cron"), base + "cron", null, base + "zone", f.get("every"), base + "every");
                at = "zone";
            }
            timing = ScheduleTiming.of(name, f.get("cron"), base + "cron", f.get("zone"), base + "zone", f.get("every"),
                    base + "every");
        } catch (IllegalArgumentException e) {
            a.problem(base + at, null, e.getMessage());
        }
        if (f.containsKey("missed")) {
            try {
                missed = MissedPolicy.parse(name, base + "missed", f.get("missed"));
            } catch (IllegalArgumentException e) {
                a.problem(base + "missed", f.get("missed"), e.getMessage());
            }
        }
        if (!f.containsKey("payload")) {
            a.problem(base + "payload", null, "the message content each tick sends is required");
        }
        if (a.problemCount() > before) {
            return Optional.empty();
        }
        return Optional.of(new ScheduleDeclaration(name, f.get("payload").getBytes(StandardCharsets.UTF_8),
                f.get("slot-basis"), timing, missed, Optional.ofNullable(f.get("priority")),
                Optional.ofNullable(f.get("time-range"))));
    }

    /**
     * Checks that each schedule has the value its topic type needs for the score (its own {@code priority} or
     * {@code time-range}, else the channel's), so that a schedule that could not be recorded fails the deployment
     * instead of being left out when the channel starts; problems recorded in {@code a}.
     */
    static void checkValues(ChannelAttributes a, List<ScheduleDeclaration> schedules, TopicType type,
            OptionalDouble channelPriority, Optional<Duration> channelTimeRange) {
        if (type == TopicType.FIXED_TIME) {
            return;
        }
        for (ScheduleDeclaration d : schedules) {
            String value = d.value(type, channelPriority, channelTimeRange);
            try {
                ScheduleDefinition.checkedValue(d.name(), type, value, d.setting(type));
            } catch (IllegalArgumentException e) {
                a.problem(d.setting(type), value, e.getMessage());
            }
        }
    }

    private static Optional<String> value(ChannelAttributes a, String property) {
        try {
            return a.config().getOptionalValue(property, String.class).map(String::trim).filter(v -> !v.isEmpty());
        } catch (RuntimeException e) {
            a.problem(property, null, "it cannot be read: " + e.getMessage());
            return Optional.empty();
        }
    }
}
