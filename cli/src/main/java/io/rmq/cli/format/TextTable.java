package io.rmq.cli.format;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import io.rmq.cli.i18n.CliMessages;

/**
 * A plain-text table with a header row, columns two spaces apart, numbers aligned right. The last
 * column is not padded, so long texts (a failure) may go there. Not thread-safe.
 */
public final class TextTable {

    /** A column: its header and whether its values align right. */
    public record Column(String header, boolean alignRight) {

        /** A column of texts. */
        public static Column text(String header) {
            return new Column(header, false);
        }

        /** A column of numbers. */
        public static Column number(String header) {
            return new Column(header, true);
        }
    }

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(Column... columns) {
        this.columns = List.of(columns);
    }

    /** Adds a row: one value per column, shown with {@code String.valueOf}. */
    public TextTable row(Object... values) {
        if (values.length != columns.size()) {
            throw CliMessages.ex.rowWidth(columns.size(), values.length);
        }
        String[] row = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            row[i] = String.valueOf(values[i]);
        }
        rows.add(row);
        return this;
    }

    /** Prints the header and the rows. */
    public void print(PrintWriter out) {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = columns.get(c).header().length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        String[] header = columns.stream().map(Column::header).toArray(String[]::new);
        printRow(out, header, widths);
        rows.forEach(row -> printRow(out, row, widths));
    }

    private void printRow(PrintWriter out, String[] values, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < values.length; c++) {
            boolean last = c == values.length - 1;
            String pad = " ".repeat(widths[c] - values[c].length());
            if (columns.get(c).alignRight()) {
                line.append(pad).append(values[c]);
            } else {
                line.append(values[c]).append(last ? "" : pad);
            }
            if (!last) {
                line.append("  ");
            }
        }
        out.println(line.toString().stripTrailing());
    }
}
