package io.rmq.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;


class RmqConfigurationExceptionTest {

    @Test
    void problemsOfSeveralChannelsAreGroupedOneLinePerChannel() {
        List<ConfigProblem> problems = new ArrayList<>();
        problems.addAll(IncomingChannelConfig.validate(TestConfigs.channel("a", "slot-amount", "3")));
        problems.addAll(OutgoingChannelConfig.validate(TestConfigs.channel("b", "topic-type", "PRIORITY",
                "priority", "NaN")));

        RmqConfigurationException e = RmqConfigurationException.of(problems);

        assertThat(e.getMessage()).isEqualTo("RMQ-2001 Channel 'a' (incoming): "
                + "attribute 'topic-type' is missing: one of RANGE_MERGE, PRIORITY, FIXED_TIME is required; "
                + "attribute 'slot-amount' = '3' is invalid: a power of two from 1 to 16384 is required\n"
                + "Channel 'b' (outgoing): attribute 'priority' = 'NaN' is invalid: a finite decimal number is required");
        assertThat(e.problems()).isEqualTo(problems);
    }

    @Test
    void theProblemListIsAnImmutableCopy() {
        List<ConfigProblem> problems = new ArrayList<>(IncomingChannelConfig.validate(TestConfigs.channel("a")));
        RmqConfigurationException e = RmqConfigurationException.of(problems);
        problems.clear();

        assertThat(e.problems()).hasSize(1);
        assertThatThrownBy(() -> e.problems().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anExceptionNeedsAProblem() {
        assertThatThrownBy(() -> RmqConfigurationException.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
