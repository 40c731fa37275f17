package io.rmq.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.rmq.benchmarks.BenchResults.Lateness;
import io.rmq.benchmarks.BenchResults.SweepPoint;

/**
 * The benchmark's charts as PNG files (XChart, drawn headless): consume throughput against batch size
 * and against the number of consumers (the connector beside the bare client at the same settings, per Redis server), and
 * the distribution of FIXED_TIME lateness, idle and at half load.
 */
final class BenchCharts {

    static final String BATCH_SIZE_FILE = "consume-vs-batch-size.png";
    static final String CONSUMERS_FILE = "consume-vs-consumers.png";
    static final String LATENESS_FILE = "lateness.png";

    private static final int WIDTH = 900;
    private static final int HEIGHT = 640;
    /** Points drawn per lateness curve: one per thousandth of the messages. */
    private static final int CURVE_POINTS = 1_000;

    private BenchCharts() {
    }

    /** Writes the charts that {@code results} have data for into {@code directory}; returns the files written. */
    static List<Path> write(List<BenchResults> results, Path directory) throws IOException {
        List<Path> written = new ArrayList<>();
        if (results.stream().anyMatch(r -> !r.sweep(BenchResults.BATCH_AXIS).isEmpty())) {
            written.add(save(sweep(results, BenchResults.BATCH_AXIS, "batch-size of the incoming channel"),
                    directory.resolve(BATCH_SIZE_FILE)));
        }
        if (results.stream().anyMatch(r -> !r.sweep(BenchResults.CONSUMERS_AXIS).isEmpty())) {
            written.add(save(sweep(results, BenchResults.CONSUMERS_AXIS, "consumers (concurrency; bare client: threads)"),
                    directory.resolve(CONSUMERS_FILE)));
        }
        if (results.stream().anyMatch(r -> r.lateness().stream().anyMatch(l -> l.sorted().length > 0))) {
            written.add(save(lateness(results), directory.resolve(LATENESS_FILE)));
        }
        return written;
    }

    private static CategoryChart sweep(List<BenchResults> results, String axis, String axisTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Consumed and committed per second against " + axis)
                .xAxisTitle(axisTitle).yAxisTitle("messages per second").build();
        // below the plot: inside, it would hide the bars of the first category
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        for (BenchResults server : results) {
            List<SweepPoint> points = server.sweep(axis);
            if (points.isEmpty()) {
                continue;
            }
            List<String> x = points.stream().map(p -> Integer.toString(p.value())).toList();
            chart.addSeries("connector, Redis " + server.redis(), x,
                    points.stream().map(SweepPoint::connectorPerSecond).toList());
            chart.addSeries("bare Lettuce, Redis " + server.redis(), x,
                    points.stream().map(SweepPoint::baselinePerSecond).toList());
        }
        return chart;
    }

    /** The share of messages delivered within each lateness: a cumulative distribution, lateness on a log axis. */
    private static XYChart lateness(List<BenchResults> results) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("FIXED_TIME lateness: share of messages delivered within")
                .xAxisTitle("lateness, ms (log scale; 1 stands for 1 ms or less)")
                .yAxisTitle("% of messages").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        chart.getStyler().setYAxisDecimalPattern("#");
        chart.getStyler().setYAxisTickMarkSpacingHint(60);
        for (BenchResults server : results) {
            for (Lateness l : server.lateness()) {
                long[] sorted = l.sorted();
                if (sorted.length == 0) {
                    continue;
                }
                int points = Math.min(CURVE_POINTS, sorted.length);
                double[] x = new double[points + 1];
                double[] y = new double[points + 1];
                for (int i = 0; i <= points; i++) {
                    int rank = (int) Math.min(sorted.length, Math.max(1, Math.round((double) i * sorted.length / points)));
                    x[i] = Math.max(1, sorted[rank - 1]);
                    y[i] = 100.0 * rank / sorted.length;
                }
                chart.addSeries(l.condition() + ", Redis " + server.redis(), x, y).setMarker(SeriesMarkers.NONE);
            }
        }
        return chart;
    }

    /**
     * A time line: each series of {@code left} (x: seconds, y on the left axis) and of {@code right} (on a second
     * axis on the right), as lines, written as the PNG {@code file}.
     */
    static Path timeLine(String title, String leftTitle, String rightTitle, Map<String, double[][]> left,
            Map<String, double[][]> right, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("time, s").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.setYAxisGroupTitle(0, leftTitle);
        chart.setYAxisGroupTitle(1, rightTitle);
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        left.forEach((name, xy) -> chart.addSeries(name, xy[0], xy[1]).setMarker(SeriesMarkers.NONE));
        right.forEach((name, xy) -> {
            chart.addSeries(name, xy[0], xy[1]).setMarker(SeriesMarkers.NONE).setYAxisGroup(1);
        });
        return save(chart, file);
    }

    private static Path save(Chart<?, ?> chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
        return file;
    }
}
