package dev.strata.bench.common;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The look of every benchmark plot (xchart): a white background, the legend below, readable fonts,
 * and several same-sized panels laid out in one PNG.
 *
 * <p>Immutable (static methods only).
 */
public final class Charts {
  /** Width of one panel, pixels. */
  public static final int PANEL_WIDTH = 560;

  /** Height of one panel, pixels. */
  public static final int PANEL_HEIGHT = 480;

  private Charts() {}

  /** Applies the common style to {@code chart}. */
  public static void style(Chart<?, ?> chart) {
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
    chart.getStyler().setLegendFont(chart.getStyler().getLegendFont().deriveFont(10f));
  }

  /** Lays {@code panels} out {@code columns} per row in one PNG at {@code file}; returns it. */
  public static Path grid(Path file, List<? extends Chart<?, ?>> panels, int columns)
      throws IOException {
    int cols = Math.min(columns, Math.max(1, panels.size()));
    int rowsCount = Math.max(1, (panels.size() + cols - 1) / cols);
    BufferedImage image = new BufferedImage(cols * PANEL_WIDTH, rowsCount * PANEL_HEIGHT,
        BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      for (int i = 0; i < panels.size(); i++) {
        BufferedImage panel = BitmapEncoder.getBufferedImage(panels.get(i));
        g.drawImage(panel, (i % cols) * PANEL_WIDTH, (i / cols) * PANEL_HEIGHT, null);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", file.toFile());
    return file;
  }
}
