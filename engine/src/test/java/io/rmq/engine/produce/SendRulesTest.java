package io.rmq.engine.produce;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

import io.rmq.engine.produce.SendRules.Parameter;
import io.rmq.engine.produce.SendRules.Parameters;
import io.rmq.engine.topic.TopicType;

class SendRulesTest {

    private static final Parameters NONE = new Parameters(Optional.empty(), OptionalDouble.empty(), Optional.empty(),
            Optional.empty(), null);

    private static Parameters timeRange() {
        return new Parameters(Optional.of(Duration.ofSeconds(2)), OptionalDouble.empty(), Optional.empty(),
                Optional.empty(), null);
    }

    private static Parameters priority() {
        return new Parameters(Optional.empty(), OptionalDouble.of(3), Optional.empty(), Optional.empty(), null);
    }

    private static Parameters delay() {
        return new Parameters(Optional.empty(), OptionalDouble.empty(), Optional.empty(),
                Optional.of(Duration.ofSeconds(1)), null);
    }

    @Test
    void eachTypeTakesItsOwnParameterOnly() {
        assertThat(SendRules.misplaced(TopicType.RANGE_MERGE, timeRange())).isEmpty();
        assertThat(SendRules.misplaced(TopicType.RANGE_MERGE, priority())).contains(Parameter.PRIORITY);
        assertThat(SendRules.misplaced(TopicType.RANGE_MERGE, delay())).contains(Parameter.DELIVERY_TIME);
        assertThat(SendRules.misplaced(TopicType.PRIORITY, priority())).isEmpty();
        assertThat(SendRules.misplaced(TopicType.PRIORITY, timeRange())).contains(Parameter.TIME_RANGE);
        assertThat(SendRules.misplaced(TopicType.PRIORITY, delay())).contains(Parameter.DELIVERY_TIME);
        assertThat(SendRules.misplaced(TopicType.FIXED_TIME, delay())).isEmpty();
        assertThat(SendRules.misplaced(TopicType.FIXED_TIME, priority())).contains(Parameter.PRIORITY);
        assertThat(SendRules.misplaced(TopicType.FIXED_TIME, timeRange())).contains(Parameter.TIME_RANGE);
    }

    @Test
    void theReasonNamesThePriorityBeforeTheTimeRange() {
        Parameters both = new Parameters(Optional.of(Duration.ofSeconds(2)), OptionalDouble.of(1), Optional.empty(),
                Optional.empty(), null);

        assertThat(SendRules.misplaced(TopicType.FIXED_TIME, both)).contains(Parameter.PRIORITY);
    }

    @Test
    void rangeMergeNeedsATimeRangeAndPriorityAPriorityFixedTimeNothing() {
        assertThat(SendRules.missing(TopicType.RANGE_MERGE, NONE)).contains(Parameter.TIME_RANGE);
        assertThat(SendRules.missing(TopicType.PRIORITY, NONE)).contains(Parameter.PRIORITY);
        assertThat(SendRules.missing(TopicType.FIXED_TIME, NONE)).isEmpty();
    }

    @Test
    void defaultsFillOnlyWhatTheMessageLacks() {
        Parameters filled = priority().orDefaults(Optional.of(Duration.ofMillis(5)), OptionalDouble.of(9));

        assertThat(filled.priority()).hasValue(3);
        assertThat(filled.timeRange()).contains(Duration.ofMillis(5));
        assertThat(SendRules.missing(TopicType.RANGE_MERGE, filled)).isEmpty();
    }

    @Test
    void parameterDescriptionsAreWhatReasonsSay() {
        assertThat(Parameter.PRIORITY.description()).isEqualTo("a priority");
        assertThat(Parameter.TIME_RANGE.description()).isEqualTo("a time range");
        assertThat(Parameter.DELIVERY_TIME.description()).isEqualTo("a delivery time or delay");
        assertThat(new Parameters(Optional.empty(), OptionalDouble.empty(), Optional.of(Instant.EPOCH),
                Optional.empty(), null).deliverAt()).contains(Instant.EPOCH);
    }
}
