package io.rmq.connector.config;

import java.util.List;

import io.rmq.connector.i18n.RmqExceptions;

/**
 * A channel configuration that cannot be used. The message lists every problem found, grouped by
 * channel; {@link #problems()} gives them one by one. Create it with
 * {@link io.rmq.connector.i18n.RmqExceptions#invalidConfiguration(List)}.
 */
public class RmqConfigurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<ConfigProblem> problems;

    /**
     * @param message  the complete message, naming every problem
     * @param problems the problems, at least one
     */
    public RmqConfigurationException(String message, List<ConfigProblem> problems) {
        super(message);
        if (problems == null || problems.isEmpty()) {
            throw RmqExceptions.ex.noConfigurationProblem();
        }
        this.problems = List.copyOf(problems);
    }

    /** The problems found, in the order they were found; never empty. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
