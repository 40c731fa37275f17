package io.rmq.connector.tracing;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * Draws exported spans as a timeline, for {@code docs/tracing.md}: one row per span in the order they started, a bar
 * from its start to its end, and a line from each span a link points to (a merged send, a previous attempt) to the
 * span that links it. Rendered with java.awt, headless.
 */
final class TraceDiagram {

    private static final int ROW = 16;
    private static final int LABEL = 300;
    private static final int PLOT = 560;
    private static final int TOP = 40;
    private static final Color SEND = new Color(0x4C78A8);
    private static final Color PROCESS = new Color(0xF58518);
    private static final Color LINK = new Color(0x54A24B);

    private TraceDiagram() {
    }

    /** Writes the diagram of {@code spans} as a PNG to {@code file}. */
    static void render(List<SpanData> spans, Path file) {
        System.setProperty("java.awt.headless", "true");
        List<SpanData> rows = new ArrayList<>(spans);
        rows.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
        long start = rows.get(0).getStartEpochNanos();
        long end = rows.stream().mapToLong(SpanData::getEndEpochNanos).max().orElse(start + 1);
        double scale = PLOT / (double) Math.max(1, end - start);
        int height = TOP + ROW * rows.size() + 30;
        BufferedImage image = new BufferedImage(LABEL + PLOT + 40, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setColor(Color.BLACK);
        g.drawString("Spans exported by TracingIT: 50 sends merged into one delivery (" + rows.size() + " spans, "
                + (end - start) / 1_000_000 + " ms)", 10, 18);
        g.drawString("blue: send (PRODUCER)   orange: process (CONSUMER)   green: link", 10, 32);
        Map<String, Integer> rowOf = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            SpanData s = rows.get(i);
            rowOf.put(s.getSpanId(), i);
            int y = TOP + i * ROW;
            int x0 = LABEL + (int) ((s.getStartEpochNanos() - start) * scale);
            int x1 = Math.max(x0 + 3, LABEL + (int) ((s.getEndEpochNanos() - start) * scale));
            g.setColor(s.getKind() == SpanKind.CONSUMER ? PROCESS : SEND);
            g.fillRect(x0, y + 3, x1 - x0, ROW - 6);
            g.setColor(Color.DARK_GRAY);
            g.drawString(s.getName() + "  " + s.getSpanId().substring(0, 8)
                    + (s.getKind() == SpanKind.CONSUMER ? "  links=" + s.getLinks().size() + " merged_sends="
                            + s.getAttributes().asMap().entrySet().stream()
                                    .filter(e -> e.getKey().getKey().equals("rmq.merged_sends"))
                                    .map(e -> String.valueOf(e.getValue())).findFirst().orElse("-") : ""),
                    10, y + ROW - 4);
        }
        g.setColor(LINK);
        g.setStroke(new BasicStroke(0.8f));
        for (int i = 0; i < rows.size(); i++) {
            SpanData s = rows.get(i);
            int x = LABEL + (int) ((s.getStartEpochNanos() - start) * scale);
            for (LinkData link : s.getLinks()) {
                Integer from = rowOf.get(link.getSpanContext().getSpanId());
                if (from != null) {
                    SpanData linked = rows.get(from);
                    int lx = LABEL + (int) ((linked.getEndEpochNanos() - start) * scale);
                    g.drawLine(lx, TOP + from * ROW + ROW / 2, x, TOP + i * ROW + ROW / 2);
                }
            }
        }
        g.dispose();
        try {
            Files.createDirectories(file.getParent());
            ImageIO.write(image, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
