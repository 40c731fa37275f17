package io.rmq.engine.settlement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeliveryScoreTest {

    private static double parse(String raw) {
        return Delivery.parseScore(raw.getBytes(StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "-0", "7", "-7", "00012", "1764240000123", "999999999999999", "-999999999999999",
            "1234567890123456", "9007199254740993", "12345678901234567890", "1.5", "-2.25", "0.1", "1e+20",
            "1.7976931348623157e+308" })
    void readsEveryScoreAsDoubleParseDoubleDoes(String raw) {
        assertThat(Double.doubleToRawLongBits(parse(raw))).as(raw)
                .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(raw)));
    }

    @Test
    void refusesWhatIsNotANumberAsBefore() {
        assertThatThrownBy(() -> parse("")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> parse("-")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> parse("12a")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> parse("inf")).isInstanceOf(NumberFormatException.class);
    }
}
