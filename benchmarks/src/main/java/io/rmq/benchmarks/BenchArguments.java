package io.rmq.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The benchmarks' settings as written: system properties {@code <prefix><name>} and program
 * arguments {@code <name>=<value>} (which win), and their integers.
 */
final class BenchArguments {

    private BenchArguments() {
    }

    /** The settings by name (without the prefix), in the order given. */
    static Map<String, String> collect(String prefix, String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith(prefix)) {
                values.put(k.toString().substring(prefix.length()), v.toString());
            }
        });
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("arguments are name=value, e.g. messages=5000; got '" + arg + "'");
            }
            String name = arg.substring(0, eq).strip();
            values.put(name.startsWith(prefix) ? name.substring(prefix.length()) : name, arg.substring(eq + 1).strip());
        }
        return values;
    }

    /** The integer setting {@code name}, {@code defaultValue} when absent or blank; at least {@code min}. */
    static int integer(String prefix, Map<String, String> values, String name, int defaultValue, int min) {
        String value = values.get(name);
        return value == null || value.isBlank() ? defaultValue : parse(prefix, name, value, min);
    }

    /**
     * The comma-separated integers of setting {@code name} ({@code defaultValue} when absent or blank),
     * each at least {@code min}, at least one.
     */
    static int[] integers(String prefix, Map<String, String> values, String name, int[] defaultValue, int min) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            return defaultValue.clone();
        }
        return java.util.Arrays.stream(value.split(",")).mapToInt(v -> parse(prefix, name, v, min)).toArray();
    }

    /** {@code value} as an integer ({@code _} allowed as a separator) of at least {@code min}. */
    static int parse(String prefix, String name, String value, int min) {
        try {
            int parsed = Integer.parseInt(value.strip().replace("_", ""));
            if (parsed < min) {
                throw new IllegalArgumentException(prefix + name + " must be >= " + min + ", was " + parsed);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(prefix + name + " must be an integer, was '" + value + "'");
        }
    }
}
