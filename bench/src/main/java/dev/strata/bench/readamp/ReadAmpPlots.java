package dev.strata.bench.readamp;

import dev.strata.bench.common.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of a run (xchart): data blocks read and looked up per read against the number of
 * level-0 tables, measured against model false-positive rate over bits/key, and Strata's throughput
 * as a ratio to RocksDB's per query kind. Several panels are laid out in one grid image.
 *
 * <p>Immutable (static methods only).
 */
final class ReadAmpPlots {
  private ReadAmpPlots() {}

  /** Writes every plot into {@code out}; returns their paths. */
  static List<Path> write(Path out, ReadAmpRun.Plan plan, List<ResultRow> main,
      List<ResultRow> sweep) throws IOException {
    List<Path> written = new ArrayList<>();
    written.add(blocksVsTables(out.resolve("data_blocks_read_vs_tables.png"), plan, main,
        m -> m.dataBlocksRead(), "data blocks read per Get (cache misses)"));
    written.add(blocksVsTables(out.resolve("data_blocks_accessed_vs_tables.png"), plan, main,
        m -> m.dataBlocksAccessed(), "data blocks looked up per Get (hits + misses)"));
    written.add(fprVsBits(out.resolve("fpr_vs_bits_per_key.png"), plan, main, sweep));
    written.add(throughputRatios(out.resolve("throughput_ratio.png"), plan, main));
    return written;
  }

  private static Path blocksVsTables(Path file, ReadAmpRun.Plan plan, List<ResultRow> rows,
      Function<PassMetrics, Double> metric, String yTitle) throws IOException {
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (Shape shape : plan.shapes()) {
      for (QueryKind q : QueryKind.values()) {
        XYChart chart = new XYChartBuilder().width(Charts.PANEL_WIDTH).height(Charts.PANEL_HEIGHT)
            .title(shape.label() + " rows, " + q.label()).xAxisTitle("level-0 tables")
            .yAxisTitle(yTitle).build();
        Charts.style(chart);
        for (Setup s : plan.setups()) {
          List<Double> x = new ArrayList<>();
          List<Double> y = new ArrayList<>();
          for (ResultRow r : rows) {
            Double v = metric.apply(r.metrics());
            if (r.setup() == s && r.shape() == shape && r.query() == q
                && r.phase().equals(ResultRow.L0) && v != null) {
              x.add((double) r.tables());
              y.add(v);
            }
          }
          if (!x.isEmpty()) {
            chart.addSeries(s.label(), x, y).setMarker(s.engine() == Setup.Engine.STRATA
                ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
          }
        }
        panels.add(chart);
      }
    }
    return Charts.grid(file, panels, QueryKind.values().length);
  }

  private static Path fprVsBits(Path file, ReadAmpRun.Plan plan, List<ResultRow> main,
      List<ResultRow> sweep) throws IOException {
    XYChart chart = new XYChartBuilder().width(2 * Charts.PANEL_WIDTH).height(2 * Charts.PANEL_HEIGHT)
        .title("False-positive rate, measured vs model (absent rows, " + plan.sweepShape().label()
            + " rows, " + plan.maxTables() + " level-0 tables)")
        .xAxisTitle("bits per key").yAxisTitle("false-positive rate").build();
    Charts.style(chart);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
    List<ResultRow> points = new ArrayList<>(sweep);
    for (ResultRow r : main) {
      if (r.shape() == plan.sweepShape() && r.phase().equals(ResultRow.L0)
          && r.tables() == plan.maxTables() && r.query() == QueryKind.ABSENT_ROW) {
        points.add(r);
      }
    }
    Map<String, TreeMap<Double, Double>> models = new LinkedHashMap<>();
    for (Setup s : plan.setups()) {
      if (!s.hasFilter()) {
        continue;
      }
      TreeMap<Double, Double> measured = new TreeMap<>();
      for (ResultRow r : points) {
        if (r.setup() == s && r.bitsPerKey() != null) {
          if (r.metrics().fprMeasured() != null && r.metrics().fprMeasured() > 0) {
            measured.put(r.bitsPerKey(), r.metrics().fprMeasured());
          }
          if (r.fprModel() != null) {
            models.computeIfAbsent(s.engine().label() + " model", k -> new TreeMap<>())
                .put(r.bitsPerKey(), r.fprModel());
          }
        }
      }
      if (!measured.isEmpty()) {
        XYSeries series = chart.addSeries(s.label() + " measured",
            new ArrayList<>(measured.keySet()), new ArrayList<>(measured.values()));
        series.setMarker(SeriesMarkers.CIRCLE);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      }
    }
    for (Map.Entry<String, TreeMap<Double, Double>> e : models.entrySet()) {
      chart.addSeries(e.getKey(), new ArrayList<>(e.getValue().keySet()),
          new ArrayList<>(e.getValue().values())).setMarker(SeriesMarkers.NONE);
    }
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("no filtered setup", List.of(plan.bitsPerKey()), List.of(1.0));
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static Path throughputRatios(Path file, ReadAmpRun.Plan plan, List<ResultRow> main)
      throws IOException {
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (Shape shape : plan.shapes()) {
      for (String phase : plan.compacted() ? List.of(ResultRow.L0, ResultRow.COMPACTED)
          : List.of(ResultRow.L0)) {
        String where = phase.equals(ResultRow.L0) ? plan.maxTables() + " level-0 tables"
            : "after full compaction";
        CategoryChart chart = new CategoryChartBuilder().width(Charts.PANEL_WIDTH).height(Charts.PANEL_HEIGHT)
            .title(shape.label() + " rows, " + where)
            .xAxisTitle("query").yAxisTitle("Strata ops/s / RocksDB ops/s").build();
        Charts.style(chart);
        for (Setup s : plan.setups()) {
          if (s.rocksDbCounterpart() == null) {
            continue;
          }
          List<String> x = new ArrayList<>();
          List<Double> y = new ArrayList<>();
          for (QueryKind q : QueryKind.values()) {
            for (ResultRow r : main) {
              if (r.setup() == s && r.shape() == shape && r.query() == q
                  && r.phase().equals(phase) && r.ratioToRocksDb() != null
                  && (phase.equals(ResultRow.COMPACTED) || r.tables() == plan.maxTables())) {
                x.add(q.label());
                y.add(r.ratioToRocksDb());
              }
            }
          }
          if (!x.isEmpty()) {
            chart.addSeries(s.label() + " / " + s.rocksDbCounterpart().label(), x, y);
          }
        }
        addRatioSeries(chart, main, plan, shape, phase, Setup.STRATA_ROWCOL, Setup.ROCKSDB_BLOOM);
        if (chart.getSeriesMap().isEmpty()) {
          chart.addSeries("no Strata/RocksDB pair", List.of("-"), List.of(0.0));
        }
        panels.add(chart);
      }
    }
    return Charts.grid(file, panels, 2);
  }

  /**
   * Adds Strata {@code strata} over RocksDB {@code rocksDb} per query kind, besides the
   * counterpart ratios of the CSV: both RocksDB filter layouts are shown against ROWCOL.
   */
  private static void addRatioSeries(CategoryChart chart, List<ResultRow> main,
      ReadAmpRun.Plan plan, Shape shape, String phase, Setup strata, Setup rocksDb) {
    List<String> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (QueryKind q : QueryKind.values()) {
      ResultRow a = null;
      ResultRow b = null;
      for (ResultRow r : main) {
        if (r.shape() == shape && r.query() == q && r.phase().equals(phase)
            && (phase.equals(ResultRow.COMPACTED) || r.tables() == plan.maxTables())) {
          a = r.setup() == strata ? r : a;
          b = r.setup() == rocksDb ? r : b;
        }
      }
      if (a != null && b != null) {
        x.add(q.label());
        y.add(a.opsPerSec() / b.opsPerSec());
      }
    }
    if (!x.isEmpty()) {
      chart.addSeries(strata.label() + " / " + rocksDb.label(), x, y);
    }
  }
}
