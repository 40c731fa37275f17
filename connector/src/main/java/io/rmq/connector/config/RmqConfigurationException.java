package io.rmq.connector.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * A channel configuration that cannot be used. The message lists every problem found, grouped by
 * channel; {@link #problems()} gives them one by one. Create it with {@link #of(List)}.
 */
public class RmqConfigurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<ConfigProblem> problems;

    /**
     * The exception for {@code problems}, its message (RMQ-2001) naming every problem, grouped by channel.
     *
     * @param problems at least one problem
     * @throws IllegalArgumentException when {@code problems} is empty
     */
    public static RmqConfigurationException of(List<ConfigProblem> problems) {
        if (problems.isEmpty()) {
            throw RmqExceptions.ex.noConfigurationProblem();
        }
        Map<String, List<String>> byChannel = new LinkedHashMap<>();
        for (ConfigProblem problem : problems) {
            byChannel.computeIfAbsent(problem.channelLabel(), k -> new ArrayList<>()).add(problem.describe());
        }
        return new RmqConfigurationException(RmqExceptions.ex.invalidConfiguration(byChannel), problems);
    }

    /**
     * @param message  the complete message, naming every problem
     * @param problems the problems, at least one
     */
    private RmqConfigurationException(String message, List<ConfigProblem> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /** The problems found, in the order they were found; never empty. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
