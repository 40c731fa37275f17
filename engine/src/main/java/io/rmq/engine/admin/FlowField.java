package io.rmq.engine.admin;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.rmq.engine.i18n.EngineExceptions;

/**
 * The settings of a topic's flow hash that an operator (or configuration) writes, and what each allows: the same
 * checks as {@code flow_set.lua}, made before a change leaves the process so that a refusal names the setting and
 * the value. A value of {@code ""} removes the setting. Stateless.
 */
public final class FlowField {

    /** Topic rate limit, messages per second. */
    public static final String RATE = "rate";
    /** Topic burst, messages. */
    public static final String BURST = "burst";
    /** Per-key concurrency. */
    public static final String KEY_CONCURRENCY = "key.conc";
    /** Per-key rate, messages per second. */
    public static final String KEY_RATE = "key.rate";
    /** Per-key burst, messages. */
    public static final String KEY_BURST = "key.burst";
    /** Fair share between tenants: on, off or draining. */
    public static final String FAIR = "fair";
    /** The prefix of a tenant's weight. */
    public static final String WEIGHT_PREFIX = "w:";
    /** The weight of tenants without one of their own. */
    public static final String DEFAULT_WEIGHT = "w.default";
    /** Priority aging pace, points per millisecond. */
    public static final String AGING_PACE = "aging.pace";
    /** Priority aging epoch, ms since the Unix epoch; set once. */
    public static final String AGING_EPOCH = "aging.epoch";
    /** Adaptive slow-down on ({@code 1}) or off ({@code 0}). */
    public static final String ADAPTIVE_ON = "a.on";
    /** Adaptive slow-down: the failure ratio above which it slows down. */
    public static final String ADAPTIVE_THRESHOLD = "a.threshold";
    /** Adaptive slow-down: the lowest rate, messages per second. */
    public static final String ADAPTIVE_FLOOR = "a.floor";

    /** The longest tenant name a weight may be given for. */
    public static final int MAX_TENANT_LENGTH = 200;

    private static final Pattern DECIMAL = Pattern.compile("\\d+|\\d+\\.\\d+|\\.\\d+");
    private static final Pattern WHOLE = Pattern.compile("\\d{1,18}");
    private static final String POSITIVE = "a decimal number above 0 (digits and an optional point)";

    private record Rule(Predicate<String> allows, String requirement) {
    }

    private static final Map<String, Rule> RULES = Map.ofEntries(
            Map.entry(RATE, new Rule(FlowField::positive, POSITIVE + ", messages per second")),
            Map.entry(KEY_RATE, new Rule(FlowField::positive, POSITIVE + ", messages per second")),
            Map.entry(ADAPTIVE_FLOOR, new Rule(FlowField::positive, POSITIVE + ", messages per second")),
            Map.entry(DEFAULT_WEIGHT, new Rule(FlowField::positive, POSITIVE)),
            Map.entry(AGING_PACE, new Rule(FlowField::positive, POSITIVE + ", priority points per millisecond")),
            Map.entry(BURST, new Rule(v -> whole(v, 0), "a whole number of messages, 0 (the default) or more")),
            Map.entry(KEY_BURST, new Rule(v -> whole(v, 1), "a whole number of messages, 1 or more")),
            Map.entry(KEY_CONCURRENCY, new Rule(v -> whole(v, 1), "a whole number of messages, 1 or more")),
            Map.entry(AGING_EPOCH, new Rule(v -> whole(v, 0), "a whole number of ms since the Unix epoch")),
            Map.entry(FAIR, new Rule(v -> List.of("on", "off", "draining").contains(v), "on, off or draining")),
            Map.entry(ADAPTIVE_ON, new Rule(v -> v.equals("1") || v.equals("0"), "1 (on) or 0 (off)")),
            Map.entry(ADAPTIVE_THRESHOLD, new Rule(v -> positive(v) && Double.parseDouble(v) < 1,
                    "a failure ratio above 0 and below 1, e.g. 0.5")));

    private FlowField() {
    }

    /** The field holding {@code tenant}'s weight. */
    public static String weight(String tenant) {
        checkTenant(tenant);
        return WEIGHT_PREFIX + tenant;
    }

    /**
     * Checks that {@code field} is a setting and {@code value} ({@code ""}: remove) one it allows.
     *
     * @throws IllegalArgumentException naming the setting and the value (RMQ-0675, RMQ-0676, RMQ-0677)
     */
    public static void check(String field, String value) {
        Rule rule = RULES.get(field);
        if (rule == null && field.startsWith(WEIGHT_PREFIX)) {
            checkTenant(field.substring(WEIGHT_PREFIX.length()));
            rule = RULES.get(DEFAULT_WEIGHT);
        }
        if (rule == null) {
            throw EngineExceptions.ex.unknownFlowField(field, String.join(", ", known()));
        }
        if (!value.isEmpty() && !rule.allows().test(value)) {
            throw EngineExceptions.ex.badFlowValue(field, value, rule.requirement());
        }
    }

    /** The settings' names, {@code w:<tenant>} standing for every tenant's weight. */
    public static List<String> known() {
        return List.of(RATE, BURST, KEY_CONCURRENCY, KEY_RATE, KEY_BURST, FAIR, WEIGHT_PREFIX + "<tenant>", DEFAULT_WEIGHT,
                AGING_PACE, AGING_EPOCH, ADAPTIVE_ON, ADAPTIVE_THRESHOLD, ADAPTIVE_FLOOR);
    }

    private static void checkTenant(String tenant) {
        if (tenant == null || tenant.isEmpty() || tenant.length() > MAX_TENANT_LENGTH
                || tenant.chars().anyMatch(Character::isISOControl)) {
            throw EngineExceptions.ex.badTenant(String.valueOf(tenant), MAX_TENANT_LENGTH);
        }
    }

    private static boolean positive(String v) {
        return v.length() <= 40 && DECIMAL.matcher(v).matches() && Double.parseDouble(v) > 0;
    }

    private static boolean whole(String v, long min) {
        return WHOLE.matcher(v).matches() && Long.parseLong(v) >= min;
    }
}
