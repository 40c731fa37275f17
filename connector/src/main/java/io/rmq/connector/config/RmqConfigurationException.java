package io.rmq.connector.config;

import java.util.List;

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
            throw new IllegalArgumentException("a configuration exception needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** The problems found, in the order they were found; never empty. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
