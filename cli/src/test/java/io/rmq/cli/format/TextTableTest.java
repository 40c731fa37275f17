package io.rmq.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import io.rmq.cli.format.TextTable.Column;

class TextTableTest {

    @Test
    void columnsAreTwoSpacesApartNumbersRightAlignedAndTheLastColumnUnpadded() {
        StringWriter out = new StringWriter();
        new TextTable(Column.text("NAME"), Column.number("N"), Column.text("NOTE"))
                .row("a", 1, "short")
                .row("longer", 1234, "a much longer note")
                .row("b", 5, "")
                .print(new PrintWriter(out, true));
        assertThat(out.toString().lines()).containsExactly(
                "NAME       N  NOTE",
                "a          1  short",
                "longer  1234  a much longer note",
                "b          5");
    }
}
